import Revertible

/// One thing the user asked for, parsed from the command line or a shell line.
///
/// Items are addressed by their 1-based position in the full list, as `todo list` shows it,
/// or by their short stable id (``ItemReference``); positions are checked against the list
/// when the command runs, not when it is parsed.
public enum Command: Equatable, Sendable {
    case add(title: String)
    /// The list; `ids` shows each item's short stable id (always shown on a server).
    case list(ListFilter, json: Bool, ids: Bool = false)
    case done(position: ItemReference)
    case undone(position: ItemReference)
    case edit(position: ItemReference, title: String)
    case remove(position: ItemReference)
    case move(position: ItemReference, to: Int)
    /// Removes the done items.
    case clear
    /// Undoes one step, some steps, or back to a tag; `strict` refuses instead of skipping
    /// what someone else changed since; `json` reports as JSON, with the author and the
    /// parts skipped.
    case undo(HistoryDestination, strict: Bool = false, json: Bool = false)
    /// Redoes one step, some steps, or up to a tag; `strict` and `json` as for undo.
    case redo(HistoryDestination, strict: Bool = false, json: Bool = false)
    case tag(name: String)
    /// Moves to a version anywhere in the current scope's tree (`goto`), or a number of
    /// versions or a span of time earlier or later in the order they were made (`earlier`,
    /// `later`).
    case goto(HistoryDestination)
    /// Everyone's steps with their authors on a shared list; `mine`: the caller's own
    /// history's tree.
    case history(json: Bool, mine: Bool = false)
    /// Opens a scope: the changes until `commit` become one undo step.
    case begin
    /// Squashes the open scope into one undo step.
    case commit
    /// Abandons the open scope, undoing its changes.
    case rollback
    /// Prints the list in the interchange format (``ExportDocument``).
    case export
    /// Checks the whole data file or the caller's server history, every step read (as
    /// `PRAGMA integrity_check` and `git fsck` do), and says what it found.
    case check
    /// Replaces the list with the one in an interchange file, as one undo step.
    case importJSON(path: String)
    case help
    /// Prints others' changes to a shared list as they are committed, until stopped, or
    /// after `seconds`, or once `count` changes were printed (`todo watch`).
    case watch(seconds: Double? = nil, count: Int? = nil)
    /// Leaves the interactive shell (and ends a script).
    case quit

    /// Whether the command moves through the history, applying saved steps to the list.
    public var appliesSavedSteps: Bool {
        switch self {
        case .undo, .redo, .goto, .rollback: true
        default: false
        }
    }

    /// What a move does with a part someone else changed since: skip it (the default) or,
    /// with `--strict`, refuse the whole move.
    public var conflictPolicy: ConflictPolicy {
        switch self {
        case .undo(_, true, _), .redo(_, true, _): .refuse
        default: .skip
        }
    }

    /// Whether the command may change the data file.
    public var isChange: Bool {
        switch self {
        case .list, .history, .help, .quit, .export, .watch, .check: false
        default: true
        }
    }
}

/// How a command names an item: its position in the list, or a prefix of its stable id as
/// `todo list` shows it (`4f2a`).
public enum ItemReference: Hashable, Sendable, ExpressibleByIntegerLiteral {
    /// A 1-based position in the full list.
    case position(Int)
    /// Lowercase hex digits, dashes removed.
    case id(String)

    /// A position, so that `.done(position: 2)` reads as before.
    public init(integerLiteral value: Int) {
        self = .position(value)
    }
}
