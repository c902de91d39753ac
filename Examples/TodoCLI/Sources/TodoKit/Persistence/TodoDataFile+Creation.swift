import Foundation

// Creating the file: an empty todo database made under a temporary name and linked into place.
extension TodoDataFile {

    /// Creates the file (and its directory) and opens it.
    ///
    /// The file appears whole: an empty todo database, already with its rollback journal, is
    /// made under a temporary name and linked into place, so concurrent first runs never meet
    /// a half-made file (two of them switching a new file to the log at once waited for each
    /// other until the lock timeout). If another run linked its file first, that one is used.
    func create() throws(DataFileProblem) -> Database {
        let location = try resolvedLocation()
        try location.createDirectory()
        let temporary = location.resolved + ".creating-\(getpid())"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) } }
        // Private, as the first todo's files were: SQLite would create it readable by all,
        // and gives its log files the mode of the database.
        createPrivateFile(temporary)
        do {
            // Nobody else knows this file: a lock that fails is an error, not a wait.
            let fresh = try Database(path: temporary, access: .create, busyWait: BusyWait(timeout: .zero, announce: {}))
            try fresh.execute("PRAGMA synchronous = FULL", operation: "create it")
            // With a rollback journal the commit writes and flushes the file itself, so the
            // file linked into place is complete (see `settleJournal`).
            try fresh.execute("PRAGMA journal_mode = DELETE", operation: "create it")
            try FreePages.setUpNewFile(fresh)
            try fresh.transaction(immediate: true) { try TodoSchema.prepare(fresh) }
        } catch let problem as DataFileProblem {
            throw problem
        } catch let error as DatabaseError {
            throw locked(error) ?? DataFileProblem(error)
        } catch {
            throw .database(operation: "create it", reason: String(describing: error))
        }
        if link(temporary, location.resolved) != 0, errno != EEXIST {
            throw .database(operation: "create it", reason: String(cString: strerror(errno)))
        }
        // The new name, durable before anything is acknowledged in the file it names.
        let directory = openForSync((location.resolved as NSString).deletingLastPathComponent)
        if directory >= 0 {
            defer { close(directory) }
            if fsync(directory) != 0 {
                throw .database(operation: "create it", reason: String(cString: strerror(errno)))
            }
        }
        guard let database = try open(forWriting: true) else {
            throw .database(operation: "create it", reason: "the new file disappeared")
        }
        return database
    }
}

/// A descriptor of `path` to sync (a directory, after a link in it); -1 if it cannot be opened.
private func openForSync(_ path: String) -> Int32 {
    open(path, O_RDONLY)
}
