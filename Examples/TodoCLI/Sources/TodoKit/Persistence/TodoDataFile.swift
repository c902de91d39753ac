import Foundation
import UndoableReducer

/// The store a command works on: the `undoable` todo reducer over the file's state.
public typealias TodoStore = Store<UndoableState<TodoList>, UndoableAction<TodoAction>>

/// The data file, an SQLite database: quick reads of the list, reads of the history, and
/// read-modify-write cycles that run a command through a ``TodoStore``.
///
/// Each change is one transaction that writes only what the command changed: the rows of the
/// items it touched, the history steps it added, the steps the limit dropped, and the
/// history's small outline (see ``TodoSchema``). It takes the write lock before reading, so
/// concurrent writers queue up instead of overwriting each other's changes, and it is on disk
/// (`synchronous = FULL`) before the confirming line is printed.
///
/// A process keeps what it last read or wrote and reuses it while no other process has
/// written since (`PRAGMA data_version`), so a script of many commands reads the file once.
public final class TodoDataFile {
    /// Where the file is, as given (it may not exist yet).
    public let path: String
    /// The most undo steps kept; older ones are dropped on the next write.
    public let historyLimit: Int
    let reducer: Undoable<TodoReducer>
    /// How long to wait for another process's lock before giving up.
    let lockTimeout: Duration
    /// Called when a wait for the lock has lasted a moment, to say so.
    let onWait: () -> Void
    /// Where the first `todo` kept its file when ``path`` is a default location (`todo.json`
    /// beside `todo.db`): imported if the database does not exist yet.
    let legacyPath: String?
    /// Called with a line to show on standard error (the import of an old file).
    let notice: (String) -> Void

    private var location: DataPath?
    private var connection: Database?
    /// Whether this process has checked the file's pages (`PRAGMA quick_check`) and set the
    /// write-ahead log, before its first write.
    private var checked = false
    /// Whether the file holds the todo tables (not a new, empty database).
    private var initialized = false
    /// What this process last read or wrote, and the `data_version` it was at.
    private var cache: Loaded?

    /// The state as read from the file, with the order key of each item's row.
    struct Loaded {
        var state: UndoableState<TodoList>
        var keys: [Int64]
        var history: HistoryRows
        var dataVersion: Int64
    }

    /// A data file at `path`; nothing is read or created until a command needs it.
    public init(
        path: String,
        historyLimit: Int,
        lockTimeout: Duration = .seconds(10),
        legacyPath: String? = nil,
        onWait: @escaping () -> Void = {},
        notice: @escaping (String) -> Void = { _ in }
    ) {
        self.path = path
        self.historyLimit = historyLimit
        self.lockTimeout = lockTimeout
        self.legacyPath = legacyPath
        self.onWait = onWait
        self.notice = notice
        reducer = TodoReducer.withUndo(historyLimit: historyLimit)
    }

    /// The list only, without the history; an empty list if the file does not exist yet.
    public func readList() throws(TodoError) -> TodoList {
        try reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return TodoList() }
            if let cache, try currentDataVersion(database) == cache.dataVersion {
                return cache.state.present
            }
            return try read(database) { () throws(DataFileProblem) in
                try ItemRows.load(from: database).list
            }
        }
    }

    /// The list with its history; an empty one if the file does not exist yet.
    public func readState() throws(TodoError) -> UndoableState<TodoList> {
        try reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return UndoableState(TodoList()) }
            return try read(database) { () throws(DataFileProblem) in
                try load(database).state
            }
        }
    }

    /// Runs `change` on a store holding the file's current state, in a write transaction,
    /// and writes what it changed. If `change` throws, nothing is written; if it changes
    /// nothing, a file that does not exist is not created.
    ///
    /// The write is on disk before this returns, so a confirmation printed afterwards is
    /// never a lie.
    public func modify<Result>(
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result {
        let existing = try reported { () throws(DataFileProblem) in
            try open(forWriting: true).map { (database) throws(DataFileProblem) in try readyForWriting(database) }
        }
        if existing == nil {
            // No file yet: try the command on an empty list first, so that one that fails or
            // changes nothing ("undo", "done 1") leaves no file and no directory behind.
            let empty = UndoableState(TodoList())
            let store = TodoStore(initialState: empty, reducer: reducer)
            let result = try change(store)
            if store.state == empty { return result }
        }
        let database = try reported { () throws(DataFileProblem) in
            if let existing { return existing }
            return try readyForWriting(try create())
        }
        do {
            return try database.transaction(immediate: true) {
                try writeTransaction(database, change)
            }
        } catch let error as TodoError {
            throw error
        } catch let problem as DataFileProblem {
            cache = nil
            throw .dataFile(path, problem)
        } catch let error as DatabaseError {
            cache = nil
            throw .dataFile(path, locked(error) ?? DataFileProblem(error))
        } catch {
            cache = nil
            throw .dataFile(path, .database(operation: "write the change", reason: String(describing: error)))
        }
    }

    /// The body of ``modify(_:)``'s transaction.
    private func writeTransaction<Result>(
        _ database: Database,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws -> Result {
        try TodoSchema.prepare(database)
        initialized = true
        let before = try load(database)
        let store = TodoStore(initialState: before.state, reducer: reducer)
        let result = try change(store)
        let after = store.state
        // A failed history command changes nothing; `change` reports it.
        let items = ItemChanges(before: before.state.present.items, beforeKeys: before.keys, after: after.present.items)
        try ItemRows.write(items, of: after.present, to: database)
        var history = before.history
        try history.write(before: before.state, after: after, to: database)
        cache = Loaded(state: after, keys: items.keys, history: history, dataVersion: before.dataVersion)
        return result
    }

    /// The state, from this process's cache if no other process has written since, else
    /// from the file.
    private func load(_ database: Database) throws(DataFileProblem) -> Loaded {
        let version = try currentDataVersion(database)
        if let cache, cache.dataVersion == version { return cache }
        let (list, keys) = try ItemRows.load(from: database)
        let history = try HistoryRows.load(from: database)
        let state = try history.state(present: list)
        let loaded = Loaded(state: state, keys: keys, history: history, dataVersion: version)
        cache = loaded
        return loaded
    }

    /// Runs `body` in a read transaction, so that the items and the history it reads are of
    /// one version of the file.
    private func read<T>(_ database: Database, _ body: () throws(DataFileProblem) -> T) throws(DataFileProblem) -> T {
        do {
            return try database.transaction(immediate: false) { try body() }
        } catch let problem as DataFileProblem {
            throw problem
        } catch let error as DatabaseError {
            throw locked(error) ?? DataFileProblem(error)
        } catch {
            throw .database(operation: "read it", reason: String(describing: error))
        }
    }

    /// `PRAGMA data_version`: changes when another connection commits.
    private func currentDataVersion(_ database: Database) throws(DataFileProblem) -> Int64 {
        do {
            return try database.integer("PRAGMA data_version") ?? 0
        } catch {
            throw DataFileProblem(error)
        }
    }

    /// The problem for a lock wait that timed out, if `error` is one.
    private func locked(_ error: DatabaseError) -> DataFileProblem? {
        guard error.primaryCode == 5 /* SQLITE_BUSY */ else { return nil }
        return .locked(seconds: Double(lockTimeout.components.seconds) + Double(lockTimeout.components.attoseconds) / 1e18)
    }

    /// Runs `body`, turning a data file problem into an error that names the file.
    private func reported<T>(_ body: () throws(DataFileProblem) -> T) throws(TodoError) -> T {
        do {
            return try body()
        } catch {
            throw .dataFile(path, error)
        }
    }

    // MARK: Opening

    /// The open connection, opening the file if it exists; `nil` if it does not, or, when
    /// only reading, if it holds no todo data yet (an empty file).
    ///
    /// A file that is not a todo database is refused before SQLite may write to it, and a
    /// file written by the first `todo` (JSON) is imported first.
    private func open(forWriting: Bool) throws(DataFileProblem) -> Database? {
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
            // Checked before anything is written: another program's database stays as it was.
            initialized = try TodoSchema.check(database) > 0
            return forWriting || initialized ? database : nil
        }
    }

    /// Imports the first todo's file at `legacy` into a database at `target`, and says so.
    private func importVersion1(from legacy: String, to target: String) throws(DataFileProblem) {
        guard let report = try V1Import.convert(from: legacy, to: target, reducer: reducer) else { return }
        let steps = "\(report.steps) history step\(report.steps == 1 ? "" : "s")"
        let items = "\(report.items) item\(report.items == 1 ? "" : "s")"
        notice("imported \(legacy), a file of an earlier todo (\(items), \(steps)), into the database \(target); the old file is kept as \(report.backup)")
    }

    /// Makes `database` ready for this process's first write, once: checks every page
    /// (see ``QuickCheck``), then switches to the write-ahead log; nothing is written to a
    /// file that fails the check.
    private func readyForWriting(_ database: Database) throws(DataFileProblem) -> Database {
        guard !checked else { return database }
        try QuickCheck.run(database)
        try enableWriteAheadLog(database)
        checked = true
        return database
    }

    /// Switches to the write-ahead log: readers never wait for a writer, and a commit
    /// appends to the log instead of rewriting pages. Persistent once set; a no-op after.
    private func enableWriteAheadLog(_ database: Database) throws(DataFileProblem) {
        do {
            try database.execute("PRAGMA journal_mode = WAL", operation: "open it")
        } catch {
            throw locked(error) ?? DataFileProblem(error)
        }
    }

    /// The path with its links resolved, once per process.
    private func resolvedLocation() throws(DataFileProblem) -> DataPath {
        if let location { return location }
        let location = try DataPath(path)
        self.location = location
        return location
    }

    /// Creates the file (and its directory) and opens it.
    private func create() throws(DataFileProblem) -> Database {
        let location = try resolvedLocation()
        try location.createDirectory()
        // Private, as the first todo's files were: SQLite would create it readable by all,
        // and gives its log files the mode of the database.
        createPrivateFile(location.resolved)
        let database = try connect(location, access: .create)
        try TodoSchema.check(database)
        return database
    }

    /// Opens the resolved path and sets the connection up: the write-ahead log, durable
    /// commits, and the lock wait.
    private func connect(_ location: DataPath, access: Database.Access) throws(DataFileProblem) -> Database {
        do {
            let database = try Database(
                path: location.resolved,
                access: access,
                busyWait: BusyWait(timeout: lockTimeout, announce: onWait)
            )
            // FULL: in WAL mode, each commit is flushed to disk before it returns, so an
            // acknowledged change survives a power loss, not only a crash of the process.
            try database.execute("PRAGMA synchronous = FULL", operation: "open it")
            connection = database
            return database
        } catch {
            throw locked(error) ?? DataFileProblem(error)
        }
    }
}
