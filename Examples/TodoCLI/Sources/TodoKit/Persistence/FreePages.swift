/// Keeps a data file free of free pages, so that a write never needs `PRAGMA quick_check`
/// over the whole file (see ``QuickCheck``).
///
/// A free page may be handed to a write without being read, so while a file has any, the
/// first write of a process checks every page: at 100,000 history steps that check cost
/// more than the rest of a command, and grew with the history (issue 37). Free pages appear
/// whenever a write deletes rows (the history limit dropping its oldest steps, a rollback, a
/// `clear`), so a file with a limit had them after nearly every command.
///
/// A file made by this `todo` is in `auto_vacuum = INCREMENTAL` mode, and every write that
/// freed pages ends, inside its own transaction, with `PRAGMA incremental_vacuum`: the pages
/// at the end of the file move into the freed ones and the file shrinks, so the next command
/// again finds no free page. Those free pages were freed by the same transaction, from a file
/// that had none (or that was checked whole first), so the vacuum walks a free list SQLite has
/// just written. Moving a page reads it and its parent as any read does (their headers and,
/// with `cell_size_check`, their cells), and rewrites only the parent's pointer to it, which
/// SQLite must find there or it reports the file damaged: damage on a moved page is carried
/// over byte for byte, found where it is read, never spread and never trusted.
///
/// A file an earlier `todo` made (`auto_vacuum = NONE`) cannot change mode in place: it is
/// converted once, by `VACUUM`, right after the first write that found free pages, which has
/// just checked every page (``TodoDataFile/checkPagesOnce(_:)``). Until then it works as
/// before. Another program deleting rows leaves free pages in either mode: the next write
/// checks the whole file once and then reclaims them.
enum FreePages {

    /// `PRAGMA auto_vacuum`'s value for incremental mode.
    static let incremental: Int64 = 2

    /// Makes a new, still empty database incremental. Call before its first write
    /// transaction begins: SQLite fixes the mode when that transaction writes the header.
    static func setUpNewFile(_ database: Database) throws(DatabaseError) {
        try database.execute("PRAGMA auto_vacuum = INCREMENTAL", operation: "set up the database")
    }

    /// Inside a write transaction, after the write: gives the pages it freed back to the
    /// file system, if the file is incremental. Nothing happens (and nothing is read) when
    /// the write freed none.
    static func reclaim(_ database: Database) throws(DatabaseError) {
        guard try database.integer("PRAGMA freelist_count") ?? 0 > 0,
              try database.integer("PRAGMA auto_vacuum") == incremental else { return }
        try database.execute("PRAGMA incremental_vacuum", operation: "write the change")
    }

    /// After a committed write whose transaction found free pages and checked every page:
    /// converts a file an earlier `todo` made to incremental mode, once, by rewriting it
    /// (`VACUUM`, which is all or nothing). Returns whether it did.
    ///
    /// Best effort: the change is already committed, so a failure (another process holding
    /// the file, a full disk) leaves the file in its old mode, as good as before, and the
    /// conversion is tried again by a later process.
    @discardableResult
    static func convertIfNeeded(_ database: Database) -> Bool {
        do {
            guard try database.integer("PRAGMA auto_vacuum") == 0 else { return false }
            try database.execute("PRAGMA auto_vacuum = INCREMENTAL", operation: "convert the file")
            try database.execute("VACUUM", operation: "convert the file")
            return try database.integer("PRAGMA auto_vacuum") == incremental
        } catch {
            return false
        }
    }
}
