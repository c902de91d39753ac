import Foundation

// Opening: the path resolved, the file checked to be a todo database, the connection set up.
extension TodoDataFile {

    /// The open connection, opening the file if it exists; `nil` if it does not, or, when
    /// only reading, if it holds no todo data yet (an empty file).
    ///
    /// A file that is not a todo database is refused before SQLite may write to it, and a
    /// file written by the first `todo` (JSON) is imported first.
    func open(forWriting: Bool) throws(DataFileProblem) -> Database? {
        if let connection {
            if forWriting || initialized { return connection }
            initialized = try TodoSchema.check(connection) > 0
            return initialized ? connection : nil
        }
        let location = try resolvedLocation()
        switch try location.status() {
        case .absent:
            // An old file that cannot be read fails the run: taken for no file, it would be
            // shadowed for good by the new database this run creates.
            if let legacyPath, access(legacyPath, F_OK) == 0,
               try FileSniffer.kind(of: legacyPath, naming: legacyPath) == .todoVersion1 {
                try importVersion1(from: legacyPath, to: location.resolved)
                return try open(forWriting: forWriting)
            }
            return nil
        case let .other(kind):
            throw .notRegularFile(kind: kind)
        case let .regular(size, writable):
            if forWriting, !writable { throw .writeProtected }
            if size > 0 {
                switch try FileSniffer.kind(of: location.resolved) {
                case .sqlite: break
                case .todoVersion1:
                    if !writable { throw .writeProtected }
                    try importVersion1(from: location.resolved, to: location.resolved)
                    return try open(forWriting: forWriting)
                case .other: throw .notTodoDatabase
                }
            }
            let database = try connect(location, access: writable ? .readWrite : .readOnly)
            if size == 0, writable {
                // An empty file someone made for `todo`: incremental from its first write.
                do {
                    try FreePages.setUpNewFile(database)
                } catch {
                    throw DataFileProblem(error)
                }
            }
            // Checked before anything is written: another program's database stays as it was.
            // Kept for the next command only once it passed, so that no later call (one that
            // writes, say) skips the check.
            initialized = try TodoSchema.check(database) > 0
            connection = database
            return forWriting || initialized ? database : nil
        }
    }

    /// Checks the file's pages (``QuickCheck``), once per process, before the first write
    /// that needs it: every page while the file has free pages, which a write may reuse
    /// unread (a file keeps none, see ``FreePages``, unless another program freed some), else
    /// the tables a write changes in place.
    func checkPagesOnce(_ database: Database) throws(DataFileProblem) {
        guard !checked else { return }
        let freePages: Int64
        do {
            freePages = try database.integer("PRAGMA freelist_count") ?? 0
        } catch {
            throw DataFileProblem(error)
        }
        if freePages == 0 {
            guard !tablesChecked else { return }
            try QuickCheck.run(database, tables: ["items", "meta"])
            tablesChecked = true
        } else {
            try QuickCheck.run(database)
            checked = true
        }
    }

    /// The path with its links resolved, once per process.
    func resolvedLocation() throws(DataFileProblem) -> DataPath {
        if let location { return location }
        let location = try DataPath(path)
        self.location = location
        return location
    }

    /// Opens the resolved path and sets the connection up: durable
    /// commits, and the lock wait.
    func connect(_ location: DataPath, access: Database.Access) throws(DataFileProblem) -> Database {
        do {
            let database = try Database(
                path: location.resolved,
                access: access,
                busyWait: BusyWait(timeout: lockTimeout, announce: onWait)
            )
            // FULL: each commit is flushed to disk before it returns, so an
            // acknowledged change survives a power loss, not only a crash of the process.
            try database.execute("PRAGMA synchronous = FULL", operation: "open it")
            // Every b-tree page SQLite reads is checked for overlapping or oversized cells, so
            // damage is found where it is read, not spread by a write (see `writeNearTheEnds`).
            try database.execute("PRAGMA cell_size_check = ON", operation: "open it")
            return database
        } catch {
            throw locked(error) ?? DataFileProblem(error)
        }
    }
}
