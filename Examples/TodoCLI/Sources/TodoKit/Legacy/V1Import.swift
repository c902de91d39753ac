import Foundation
import UndoableReducer

/// Turns a data file of the first `todo` (JSON, format 1) into a database, once: the file is
/// read and checked whole, the database is written beside it under a temporary name (with a
/// rollback journal, so it is complete and flushed when its commit returns) and closed, the
/// old file is kept under a new name (a hard link), and the database takes the
/// old file's place with one rename. A process killed at any point leaves the old file where
/// it was, or the finished database.
enum V1Import {

    /// What an import did, for the message.
    struct Report {
        var items: Int
        var steps: Int
        var backup: String
    }

    /// Imports the format 1 file at `legacy` into a new database at `target`: the same path
    /// (a `--file` or `TODO_FILE` naming the old file), or the new default beside it
    /// (`todo.db` beside `todo.json`). Returns `nil` if another process imported it meanwhile.
    static func convert(from legacy: String, to target: String, reducer: Undoable<TodoReducer>) throws(DataFileProblem) -> Report? {
        // Two processes must not both import: the second waits for the first, then finds the
        // work done.
        let descriptor = retryingOnInterrupt { open(legacy, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .system(operation: "read \(legacy)", reason: systemErrorDescription())
        }
        defer { close(descriptor) }
        guard retryingOnInterrupt({ flock(descriptor, LOCK_EX) }) == 0 else {
            throw .system(operation: "lock \(legacy) to import it", reason: systemErrorDescription())
        }
        var opened = stat()
        var current = stat()
        guard fstat(descriptor, &opened) == 0, stat(legacy, &current) == 0,
              opened.st_ino == current.st_ino, opened.st_dev == current.st_dev
        else { return nil }
        if target != legacy, access(target, F_OK) == 0 { return nil }

        let state = try V1File.read(legacy, reducer: reducer)
        let temporary = target + ".importing"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        let operation = target == legacy ? "import it (a file of an earlier todo)" : "import \(legacy) into it"
        try write(state, to: temporary, mode: opened.st_mode & 0o777, operation: operation)
        let backup: String
        if target == legacy {
            backup = try keepOldFile(legacy)
            guard rename(temporary, target) == 0 else {
                let reason = systemErrorDescription()
                unlink(temporary)
                throw .system(operation: "replace it with the imported database", reason: reason)
            }
        } else {
            // A link, not a rename: it fails instead of replacing a database made meanwhile.
            guard link(temporary, target) == 0 else {
                let failure = errno
                unlink(temporary)
                if failure == EEXIST { return nil }
                throw .system(operation: "create it", reason: systemErrorDescription(failure))
            }
            unlink(temporary)
            backup = try keepOldFile(legacy)
            unlink(legacy)
        }
        // The rename or link is the import: flush the directory so that it survives a crash
        // (this also flushes the removal of the new database's rollback journal, which is in
        // the same directory). If that fails, the import is in place but may not survive a
        // power loss: say so, and do not go on to run the command as if all were well.
        let directory = retryingOnInterrupt { open((target as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if directory >= 0 {
            defer { close(directory) }
            guard retryingOnInterrupt({ fsync(directory) }) == 0 else {
                throw .system(operation: "flush the directory after importing \(legacy) (the old file is kept as \(backup))", reason: systemErrorDescription())
            }
        }
        return Report(items: state.present.items.count, steps: state.archive.steps.count, backup: backup)
    }

    /// Writes `state` as a new database at `path`, and closes it; a failure is reported as
    /// failing `operation`.
    private static func write(_ state: UndoableState<TodoList>, to path: String, mode: mode_t, operation: String) throws(DataFileProblem) {
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        if created >= 0 { close(created) }
        do {
            // A rollback journal, not the write-ahead log: the commit then writes and flushes
            // the database file itself, and any failure to do so fails the import. In WAL
            // mode the rows would reach the file only at the checkpoint when the connection
            // closes, whose failures no one sees: the file linked into place could then be an
            // empty database, its rows left behind in `<temporary>-wal`. The first write of
            // a later command switches the file to WAL.
            let database = try Database(path: path, access: .create, busyWait: BusyWait(timeout: .seconds(10), announce: {}))
            try database.execute("PRAGMA journal_mode = DELETE", operation: "import it")
            try database.execute("PRAGMA synchronous = FULL", operation: "import it")
            try FreePages.setUpNewFile(database)
            try database.transaction(immediate: true) {
                try TodoSchema.prepare(database)
                _ = try ItemRows.replaceAll(with: state.present, in: database)
                _ = try HistoryRows.replaceAll(with: state, in: database)
            }
        } catch let problem as DataFileProblem {
            unlink(path)
            throw problem
        } catch let error as DatabaseError {
            unlink(path)
            // SQLite's own operation names ("write the change") would not say it was the import.
            if case let .database(_, reason) = DataFileProblem(error) {
                throw .database(operation: operation, reason: reason)
            }
            throw DataFileProblem(error)
        } catch {
            unlink(path)
            throw .database(operation: operation, reason: String(describing: error))
        }
    }

    /// A second name for the old file, `<path>.v1-backup` (or `-2`, `-3`, ... if taken).
    private static func keepOldFile(_ path: String) throws(DataFileProblem) -> String {
        for attempt in 1...100 {
            let backup = path + ".v1-backup" + (attempt == 1 ? "" : "-\(attempt)")
            if link(path, backup) == 0 { return backup }
            guard errno == EEXIST else {
                throw .system(operation: "keep the old file as \(backup)", reason: systemErrorDescription())
            }
        }
        throw .system(operation: "keep the old file", reason: "too many backups beside it")
    }
}
