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
    /// Whether the process runs one command only: then a command near the ends of the list
    /// reads only them (see ``modify(nearTheEnds:_:)``), rather than the whole list a next
    /// command could reuse.
    let singleCommand: Bool

    private var location: DataPath?
    private var connection: Database?
    /// Whether this process has checked the file's pages (`PRAGMA quick_check`).
    private var checked = false
    /// Whether this process has tried to switch the file from the write-ahead log to a
    /// rollback journal (see ``settleJournal(_:)``).
    private var journalSwitchTried = false
    /// Whether the file holds the todo tables (not a new, empty database).
    private var initialized = false
    /// Why importing the first todo's file failed in this process, if it did. Every later
    /// open gives the same error rather than trying again: the first try may come from a
    /// best-effort read that drops its error (the open-scope notice), and a second import
    /// after a failed flush could then report success for a run whose disk had already failed
    /// it once.
    private var importFailure: DataFileProblem?
    /// What this process last read or wrote, and the `data_version` it was at.
    private var cache: Loaded?

    /// The state as read from the file, with the order key of each item's row.
    struct Loaded {
        var state: UndoableState<TodoList>
        var keys: [Int64]
        var history: HistoryRows
        var dataVersion: Int64
    }

    /// A command already run on `start` (an empty list, before the file existed), with what
    /// it returned: written as it is if the transaction finds the file still at `start`.
    struct Prepared<Result> {
        var start: UndoableState<TodoList>
        var store: TodoStore
        var result: Result
    }

    /// A data file at `path`; nothing is read or created until a command needs it.
    public init(
        path: String,
        historyLimit: Int,
        lockTimeout: Duration = .seconds(10),
        legacyPath: String? = nil,
        onWait: @escaping () -> Void = {},
        notice: @escaping (String) -> Void = { _ in },
        singleCommand: Bool = false
    ) {
        self.singleCommand = singleCommand
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
    /// With `nearTheEnds`, the caller says the command reads and writes only items near the
    /// ends of the list (`add`, and usually `undo`, `redo` and `tag`): in a process that runs
    /// one command, the list is then read only at its ends (see ``ItemRows/loadEnds(from:rows:)``),
    /// and read whole, the command run again, if it turns out to need more.
    ///
    /// The write is on disk before this returns, so a confirmation printed afterwards is
    /// never a lie.
    ///
    /// With `appliesSavedSteps`, the caller says the command may move through the history
    /// (undo, redo, goto, rollback), applying saved steps to the list: if it did, the result
    /// is checked to load again before it is written (see
    /// ``HistoryMismatch/checkLoadable(_:)``), so that an item another program
    /// edited never makes `todo` write a file it then refuses.
    public func modify<Result>(
        nearTheEnds: Bool = false,
        appliesSavedSteps: Bool = false,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result {
        let existing = try reported { () throws(DataFileProblem) in
            try open(forWriting: true)
        }
        var prepared: Prepared<Result>?
        if existing == nil {
            // No file yet: the command runs on an empty list before the file is made, so that
            // one that fails or changes nothing ("undo", "done 1") leaves no file and no
            // directory behind. What it did is written as it is (not run again) unless
            // another process wrote to the new file first.
            let empty = UndoableState(TodoList())
            let store = TodoStore(initialState: empty, reducer: reducer)
            let result = try change(store)
            if store.state == empty { return result }
            prepared = Prepared(start: empty, store: store, result: result)
        }
        let database = try reported { () throws(DataFileProblem) in
            if let existing { return existing }
            return try create()
        }
        do {
            let result = try database.transaction(immediate: true) {
                // At most two attempts, each running the command once: on the ends of the
                // list, then, only if those were not enough, on the whole list (the first
                // attempt's result is dropped unseen, and it wrote nothing).
                if prepared == nil, nearTheEnds, singleCommand, cache == nil, try TodoSchema.check(database) == TodoSchema.version,
                   let result = try writeNearTheEnds(database, appliesSavedSteps: appliesSavedSteps, change) {
                    return result
                }
                return try writeTransaction(database, appliesSavedSteps: appliesSavedSteps, prepared: prepared, change)
            }
            try settleJournal(database)
            return result
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

    /// The body of ``modify(nearTheEnds:_:)``'s transaction: the whole list and history
    /// read (or taken from the cache), `change` run on them, what changed written.
    private func writeTransaction<Result>(
        _ database: Database,
        appliesSavedSteps: Bool,
        prepared: Prepared<Result>?,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws -> Result {
        try checkPagesOnce(database)
        try TodoSchema.prepare(database)
        initialized = true
        let before = try load(database)
        let store: TodoStore
        let result: Result
        if let prepared, prepared.start == before.state, prepared.start.currentVersionID == before.state.currentVersionID {
            (store, result) = (prepared.store, prepared.result)
        } else {
            // A second attempt when another process wrote the new file first: the command
            // runs again on what it wrote, and the first result is dropped unseen.
            store = TodoStore(initialState: before.state, reducer: reducer)
            result = try change(store)
        }
        let after = store.state
        if appliesSavedSteps, after.currentVersionID != before.state.currentVersionID {
            try HistoryMismatch.checkLoadable(after)
        }
        // A failed history command changes nothing; `change` reports it.
        let items = ItemChanges(before: before.state.present.items, beforeKeys: before.keys, after: after.present.items)
        try ItemRows.write(items, of: after.present, to: database)
        var history = before.history
        try history.write(before: before.state, after: after, to: database)
        try clearOpenScopeMark(database, after: after)
        cache = Loaded(state: after, keys: items.keys, history: history, dataVersion: before.dataVersion)
        return result
    }

    // MARK: The open scope

    /// The `meta` key an earlier `todo` set when a shell was left with a scope open; removed
    /// by every write that leaves no scope open (the note is now said on every command).
    static let openScopeKey = "open-scope-notice"

    /// The level of the open scope (0 outside any), from what this process last read if no
    /// other process has written since, else from the history's outline alone; `nil` if the
    /// file cannot be read. Best effort: the note it feeds is a courtesy, and a command that
    /// needs the file says why it cannot read it.
    public func openScopeLevel() -> Int? {
        try? reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return 0 }
            if let cache, try currentDataVersion(database) == cache.dataVersion {
                return cache.state.scopeLevel
            }
            return try read(database) { () throws(DataFileProblem) in try HistoryRows.scopeLevel(in: database) }
        }
    }

    /// Removes the open-scope mark when a write leaves no scope open.
    private func clearOpenScopeMark(_ database: Database, after state: UndoableState<TodoList>) throws {
        guard state.scopeLevel == 0 else { return }
        try database.statement("DELETE FROM meta WHERE key = ?").bind(.text(Self.openScopeKey)).run()
    }

    /// How many items at each end of the list ``writeNearTheEnds(_:_:)`` reads: commands on
    /// the last (or first) few hundred items, and undoing them, stay on the fast path.
    static let endRows = 256

    /// The body of ``modify(nearTheEnds:_:)``'s transaction for a command near the ends of
    /// the list: the list read at its ends only, `change` run, and what changed written if it
    /// touched real items only. `nil`, having written nothing, when the list is short (it is
    /// read whole anyway), or when the command read, wrote or saved in its history step an
    /// item that was not read: the caller then runs it on the whole list, which also reports
    /// any error the command or the file has.
    ///
    /// `PRAGMA quick_check` is skipped here while the file has no free pages: SQLite checks
    /// each page it reads (with `cell_size_check`), and a write into a file without free pages
    /// changes only pages it has read and appends new ones, so damage elsewhere in the file
    /// is neither trusted nor spread. A free page, though, may be handed out without being
    /// read, so a file with any is checked whole first, as on the other path.
    private func writeNearTheEnds<Result>(
        _ database: Database,
        appliesSavedSteps: Bool,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws -> Result? {
        guard let ends = try ItemRows.loadEnds(from: database, rows: Self.endRows) else { return nil }
        let history = try HistoryRows.load(from: database)
        guard let before = try? history.state(present: ends.list) else { return nil }
        let store = TodoStore(initialState: before, reducer: reducer)
        guard let result = try? change(store), store.state.error == nil else { return nil }
        let after = store.state
        // Checked, and reported, on the whole list.
        if appliesSavedSteps, after.currentVersionID != before.currentVersionID,
           (try? HistoryMismatch.checkLoadable(after)) == nil {
            return nil
        }
        let items = ItemChanges(before: before.present.items, beforeKeys: ends.keys, after: after.present.items)
        guard ends.placeholders.allowWriting(items, in: after.present.items) else { return nil }
        var rows = history
        let steps = try rows.changes(before: before, after: after)
        guard !steps.documents.contains(where: ends.placeholders.appears) else { return nil }
        if try database.integer("PRAGMA freelist_count") != 0 {
            try checkPagesOnce(database)
        }
        initialized = true
        try ItemRows.write(items, of: after.present, to: database)
        try rows.write(steps, to: database)
        try clearOpenScopeMark(database, after: after)
        // The state holds stand-ins: never kept for a next command.
        cache = nil
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
            // Kept for the next command only once it passed, so that no later call (one that
            // writes, say) skips the check.
            initialized = try TodoSchema.check(database) > 0
            connection = database
            return forWriting || initialized ? database : nil
        }
    }

    /// Imports the first todo's file at `legacy` into a database at `target`, and says so.
    private func importVersion1(from legacy: String, to target: String) throws(DataFileProblem) {
        if let importFailure { throw importFailure }
        let converted: V1Import.Report?
        do {
            // Every step the old file kept, whatever this run's limit: the import happens on
            // whatever command comes first, a `list` too, and a read never discards history.
            // The limit applies on the next write, as for any file.
            converted = try V1Import.convert(from: legacy, to: target, reducer: TodoReducer.withUndo(historyLimit: nil))
        } catch {
            importFailure = error
            throw error
        }
        guard let report = converted else { return }
        let steps = "\(report.steps) history step\(report.steps == 1 ? "" : "s")"
        let items = "\(report.items) item\(report.items == 1 ? "" : "s")"
        notice("imported \(legacy), a file of an earlier todo (\(items), \(steps)), into the database \(target); the old file is kept as \(report.backup)")
    }

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
    private func settleJournal(_ database: Database) throws {
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
    private func journalMode(_ database: Database) throws -> String {
        let statement = try database.statement("PRAGMA journal_mode")
        try statement.bind()
        defer { _ = try? statement.bind() }
        return try statement.step() ? (statement.text(0) ?? "").lowercased() : ""
    }

    /// Checks every page of the file (``QuickCheck``), once per process, before the first
    /// write that needs it.
    private func checkPagesOnce(_ database: Database) throws(DataFileProblem) {
        guard !checked else { return }
        try QuickCheck.run(database)
        checked = true
    }

    /// The path with its links resolved, once per process.
    private func resolvedLocation() throws(DataFileProblem) -> DataPath {
        if let location { return location }
        let location = try DataPath(path)
        self.location = location
        return location
    }

    /// Creates the file (and its directory) and opens it.
    ///
    /// The file appears whole: an empty todo database, already with its rollback journal, is
    /// made under a temporary name and linked into place, so concurrent first runs never meet
    /// a half-made file (two of them switching a new file to the log at once waited for each
    /// other until the lock timeout). If another run linked its file first, that one is used.
    private func create() throws(DataFileProblem) -> Database {
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

    /// Opens the resolved path and sets the connection up: durable
    /// commits, and the lock wait.
    private func connect(_ location: DataPath, access: Database.Access) throws(DataFileProblem) -> Database {
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


/// A descriptor of `path` to sync (a directory, after a link in it); -1 if it cannot be opened.
private func openForSync(_ path: String) -> Int32 {
    open(path, O_RDONLY)
}
