import Foundation

// The rollback journal: a change is in the database file itself before it is acknowledged.
extension TodoDataFile {

    /// After a committed write: makes sure the change is in the database file itself, not
    /// only in a write-ahead log beside it. A file an earlier `todo` left in WAL mode is
    /// switched to a rollback journal, once per process, after the first write succeeded (the
    /// switch writes to the file, and a write that fails must leave it as it was).
    ///
    /// A rollback journal, not the write-ahead log: a commit then writes and flushes the
    /// database file itself before it returns, so an acknowledged change never lives only in
    /// a `-wal` file, which a user may delete (issue 27: with the `-wal` and `-shm` files
    /// deleted between five adds, one survived). Readers need no `-shm` file either, so a
    /// file in a folder this user cannot write is still read, and a `-shm` left from a
    /// read-only period blocks nothing.
    ///
    /// Leaving the write-ahead log needs the file to itself: while a process of an earlier
    /// `todo` has it open, the switch fails, and the log is checkpointed into the file
    /// instead; a later run switches it.
    func settleJournal(_ database: Database) throws {
        var mode = try journalMode(database)
        if mode != "delete", !journalSwitchTried {
            journalSwitchTried = true
            do {
                try database.execute("PRAGMA journal_mode = DELETE", operation: "write the change")
            } catch {
                // SQLITE_BUSY: another process has it open in WAL mode; checkpointed below.
                guard error.primaryCode == 5 else { throw error }
            }
            mode = try journalMode(database)
        }
        guard mode == "wal" else { return }
        let checkpoint = try database.statement("PRAGMA wal_checkpoint(FULL)")
        try checkpoint.bind()
        defer { _ = try? checkpoint.bind() }
        guard try checkpoint.step(), checkpoint.integer(0) == 0, checkpoint.integer(1) == checkpoint.integer(2) else {
            throw DataFileProblem.database(operation: "write the change", reason: "another program keeps the file's write-ahead log open; the change is in the log, not yet in the file")
        }
    }

    /// The file's journal mode, lowercased (`delete`, `wal`).
    func journalMode(_ database: Database) throws -> String {
        let statement = try database.statement("PRAGMA journal_mode")
        try statement.bind()
        defer { _ = try? statement.bind() }
        return try statement.step() ? (statement.text(0) ?? "").lowercased() : ""
    }
}
