/// How far an undo or a redo goes: a number of steps, or the version with a tag.
///
/// A string literal is a tag, so a move to a named version reads as the name:
///
/// ```swift
/// try controller.undo(to: "before import")
/// try controller.undo(to: .steps(3))
/// try controller.undo(to: .tag(Checkpoint.saved))
/// ```
public enum HistoryTarget: Hashable, Sendable, ExpressibleByStringLiteral {
    /// This many steps of the current scope. One step with nothing to undo or redo does
    /// nothing; more steps than the scope holds, or a negative count, are refused.
    case steps(Int)
    /// The version tagged with this tag, in the current scope: undo stops on it, redo
    /// includes the step that made it. An unknown tag, or one the move cannot reach, is
    /// refused.
    case tag(HistoryTag)

    /// One step.
    public static let oneStep = HistoryTarget.steps(1)

    /// The version tagged `value`.
    @_disfavoredOverload
    public static func tag(_ value: some Hashable & Sendable) -> HistoryTarget {
        .tag(HistoryTag(value))
    }

    /// The version tagged with a string.
    public init(stringLiteral value: String) {
        self = .tag(HistoryTag(value))
    }
}

/// Saved as `{"steps": 3}` or `{"tag": "name"}`; only string and integer tags can be saved
/// (see ``HistoryTag``).
extension HistoryTarget: Codable {

    private enum CodingKeys: String, CodingKey {
        case steps, tag
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let steps = try container.decodeIfPresent(Int.self, forKey: .steps) {
            self = .steps(steps)
        } else {
            self = .tag(try container.decode(HistoryTag.self, forKey: .tag))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .steps(steps): try container.encode(steps, forKey: .steps)
        case let .tag(tag): try container.encode(tag, forKey: .tag)
        }
    }
}
