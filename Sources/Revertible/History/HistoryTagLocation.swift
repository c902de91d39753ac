/// Where a tagged version is, seen from the present.
///
/// ```swift
/// if controller.location(of: "saved") == .present { /* the document is saved */ }
/// ```
public enum HistoryTagLocation: Hashable, Sendable, CustomStringConvertible {
    /// The present is the tagged version.
    case present
    /// This many undos of the current scope reach it.
    case behind(steps: Int)
    /// This many redos of the current scope reach it.
    case ahead(steps: Int)
    /// On another branch of the current scope: ``VersioningController/move(to:onConflict:)`` reaches it.
    case onAnotherBranch
    /// In the enclosing scope at this level: pop or abandon the current scope first.
    case outsideCurrentScope(level: Int)
    /// No version has the tag.
    case unknown

    public var description: String {
        switch self {
        case .present: "the present"
        case let .behind(steps): "\(steps) step\(steps == 1 ? "" : "s") behind the present"
        case let .ahead(steps): "\(steps) step\(steps == 1 ? "" : "s") ahead of the present"
        case .onAnotherBranch: "on another branch"
        case let .outsideCurrentScope(level): "in the enclosing scope at level \(level)"
        case .unknown: "unknown"
        }
    }
}
