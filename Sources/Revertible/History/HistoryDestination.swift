/// Where a move through a history goes: a number of steps, a tagged version, a version by
/// identifier, by the order versions were made or by time (like Vim's `:undo N`, `:earlier`
/// and `:later`), or either end of the current scope.
///
/// One rule for every call: ``VersioningController/move(to:onConflict:)`` goes to the
/// destination wherever it is in the current scope's tree, and `undo(to:)` and `redo(to:)`
/// go to it along their own way (back towards the scope's start, or forward along the branch
/// redo follows), refusing a destination that is not on it. Only a number of ``steps(_:)``
/// needs that way to count along, so `move(to:)` refuses it
/// (``HistoryError/unsupportedDestination(_:)``).
///
/// A string literal is a tag, so a move to a named version reads as the name:
///
/// ```swift
/// try controller.undo(to: "before import")
/// try controller.undo(to: .steps(3))
/// try controller.undo(to: .oldest)                 // where the scope started
/// try controller.move(to: .earlier(3))             // the state three changes ago, in time
/// try controller.move(to: .later(by: .seconds(600)))
/// try controller.move(to: .version(saved))
/// ```
///
/// Moves in the order versions were made, or by time, stop at the scope's ends: asking for
/// more than there is goes to the oldest (or newest) version instead of being refused.
public enum HistoryDestination: Hashable, Sendable, ExpressibleByStringLiteral {
    /// This many steps of the current scope, for undo and redo. One step with nothing to undo
    /// or redo does nothing; more steps than the scope holds, or a negative count, are
    /// refused.
    case steps(Int)
    /// The version with this tag, in the current scope: undo stops on it, redo includes the
    /// step that made it. An unknown tag, or one the move cannot reach, is refused.
    case tag(HistoryTag)
    /// The version with this identifier.
    case version(HistoryVersion)
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

    /// The version tagged `value`.
    @_disfavoredOverload
    public static func tag(_ value: some Hashable & Sendable) -> HistoryDestination {
        .tag(HistoryTag(value))
    }

    /// The version tagged with a string.
    public init(stringLiteral value: String) {
        self = .tag(HistoryTag(value))
    }

    /// The newest version made at least `duration` before the present one.
    public static func earlier(by duration: Duration) -> HistoryDestination {
        .earlierBy(duration)
    }

    /// The newest version made at most `duration` after the present one.
    public static func later(by duration: Duration) -> HistoryDestination {
        .laterBy(duration)
    }
}

/// Saved as `{"steps": 3}`, `{"tag": "name"}` (only string and integer tags can be saved, see
/// ``HistoryTag``), or `{"earlier": {"_0": 3}}`, `{"oldest": {}}` and so on, as the two enums
/// this one replaces were saved; a tag saved as `{"tag": {"_0": "name"}}` loads too.
extension HistoryDestination: Codable {

    private enum CodingKeys: String, CodingKey {
        case steps, tag, version, earlier, later, earlierBy, laterBy, oldest, newest
    }

    private enum PayloadKeys: String, CodingKey {
        case payload = "_0"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "a destination is an object with one key, such as \"steps\" or \"tag\""
            ))
        }
        func payload<T: Decodable>(_: T.Type) throws -> T {
            try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: key).decode(T.self, forKey: .payload)
        }
        switch key {
        case .steps: self = .steps(try container.decode(Int.self, forKey: .steps))
        case .tag:
            if let tag = try? container.decode(HistoryTag.self, forKey: .tag) {
                self = .tag(tag)
            } else {
                self = .tag(try payload(HistoryTag.self))
            }
        case .version: self = .version(try payload(HistoryVersion.self))
        case .earlier: self = .earlier(try payload(Int.self))
        case .later: self = .later(try payload(Int.self))
        case .earlierBy: self = .earlierBy(try payload(Duration.self))
        case .laterBy: self = .laterBy(try payload(Duration.self))
        case .oldest: self = .oldest
        case .newest: self = .newest
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        func payload(_ value: some Encodable, _ key: CodingKeys) throws {
            var nested = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: key)
            try nested.encode(value, forKey: .payload)
        }
        switch self {
        case let .steps(count): try container.encode(count, forKey: .steps)
        case let .tag(tag): try container.encode(tag, forKey: .tag)
        case let .version(version): try payload(version, .version)
        case let .earlier(count): try payload(count, .earlier)
        case let .later(count): try payload(count, .later)
        case let .earlierBy(duration): try payload(duration, .earlierBy)
        case let .laterBy(duration): try payload(duration, .laterBy)
        case .oldest: _ = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .oldest)
        case .newest: _ = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .newest)
        }
    }
}
