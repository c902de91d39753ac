/// How far `undo` and `redo` go.
public enum HistoryTarget: Equatable, Sendable {
    /// A number of steps, at least one.
    case steps(Int)
    /// The version named by `todo tag`.
    case tag(String)
}
