import Revertible

/// One thing the user asked for, parsed from the command line or a shell line.
///
/// Items are addressed by their 1-based position in the full list, as `todo list` shows it;
/// positions are checked against the list when the command runs, not when it is parsed.
public enum Command: Equatable, Sendable {
    case add(title: String)
    case list(ListFilter, json: Bool)
    case done(position: Int)
    case undone(position: Int)
    case edit(position: Int, title: String)
    case remove(position: Int)
    case move(position: Int, to: Int)
    /// Removes the done items.
    case clear
    /// Undoes one step, some steps, or back to a tag.
    case undo(HistoryTarget)
    /// Redoes one step, some steps, or up to a tag.
    case redo(HistoryTarget)
    case tag(name: String)
    /// Moves to a version anywhere in the current scope's tree (`goto`), or a number of
    /// versions or a span of time earlier or later in the order they were made (`earlier`,
    /// `later`).
    case goto(HistoryDestination)
    case history(json: Bool)
    /// Opens a scope: the changes until `commit` become one undo step.
    case begin
    /// Squashes the open scope into one undo step.
    case commit
    /// Abandons the open scope, undoing its changes.
    case rollback
    /// Prints the list in the interchange format (``ExportDocument``).
    case export
    /// Replaces the list with the one in an interchange file, as one undo step.
    case importJSON(path: String)
    case help
    /// Leaves the interactive shell (and ends a script).
    case quit

    /// Whether the command moves through the history, applying saved steps to the list.
    public var appliesSavedSteps: Bool {
        switch self {
        case .undo, .redo, .goto, .rollback: true
        default: false
        }
    }

    /// Whether the command may change the data file.
    public var isChange: Bool {
        switch self {
        case .list, .history, .help, .quit, .export: false
        default: true
        }
    }
}
