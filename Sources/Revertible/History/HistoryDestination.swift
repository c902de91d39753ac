/// A version to move to through the tree of versions of the current scope, whichever branch
/// it is on, like Vim's `:undo N`, `:earlier` and `:later`.
///
/// ```swift
/// try controller.move(to: .earlier(3))            // the state three changes ago, in time
/// try controller.move(to: .later(by: .seconds(600)))
/// try controller.move(to: .tag("before import"))
/// try controller.move(to: .version(saved))
/// try controller.move(to: .oldest)                 // where the scope started
/// ```
///
/// Moves in the order versions were made, or by time, stop at the scope's ends: asking for
/// more than there is goes to the oldest (or newest) version instead of being refused.
public enum HistoryDestination: Hashable, Sendable, Codable {
    /// The version with this identifier.
    case version(HistoryVersion)
    /// The version with this tag.
    case tag(HistoryTag)
    /// This many versions earlier in the order they were made, whichever branch they are on;
    /// the oldest version of the scope if there are fewer. A negative count is refused.
    case earlier(Int)
    /// This many versions later in the order they were made; the newest version of the scope
    /// if there are fewer. A negative count is refused.
    case later(Int)
    /// The newest version made at least this long before the present one was (the oldest
    /// version of the scope if none is that old).
    case earlierBy(Duration)
    /// The newest version made at most this long after the present one was.
    case laterBy(Duration)
    /// The oldest version of the current scope: where undo stops (like Vim's `:earlier 999`).
    case oldest
    /// The version of the current scope made last, whichever branch it is on.
    case newest

    /// The newest version made at least `duration` before the present one.
    public static func earlier(by duration: Duration) -> HistoryDestination {
        .earlierBy(duration)
    }

    /// The newest version made at most `duration` after the present one.
    public static func later(by duration: Duration) -> HistoryDestination {
        .laterBy(duration)
    }
}
