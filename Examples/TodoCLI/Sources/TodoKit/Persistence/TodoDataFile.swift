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
    /// reads only them (see ``modify(nearTheEnds:appliesSavedSteps:_:)``), rather than the whole list a next
    /// command could reuse.
    let singleCommand: Bool

    // What follows is this object's own state, not `private` only because its concerns live
    // in extensions of their own (TodoDataFile+Reading, +Writing, +Opening, ...).

    /// The path with its links resolved, once resolved.
    var location: DataPath?
    /// The open connection, once opened.
    var connection: Database?
    /// Whether this process has checked the file's pages (`PRAGMA quick_check`).
    var checked = false
    /// Whether this process has checked the tables a write changes in place (see
    /// ``checkPagesOnce(_:)``).
    var tablesChecked = false
    /// Whether this process has tried to convert a file an earlier `todo` made to
    /// incremental vacuum (see ``FreePages/convertIfNeeded(_:)``).
    var vacuumConversionTried = false
    /// Whether this process has tried to switch the file from the write-ahead log to a
    /// rollback journal (see ``settleJournal(_:)``).
    var journalSwitchTried = false
    /// Whether the file holds the todo tables (not a new, empty database).
    var initialized = false
    /// Why importing the first todo's file failed in this process, if it did. Every later
    /// open gives the same error rather than trying again: the first try may come from a
    /// best-effort read that drops its error (the open-scope notice), and a second import
    /// after a failed flush could then report success for a run whose disk had already failed
    /// it once.
    var importFailure: DataFileProblem?
    /// What this process last read or wrote, and the `data_version` it was at.
    var cache: Loaded?

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
}
