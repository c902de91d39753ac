/// Who made a step: any `Hashable & Sendable` value, or a string or integer literal, as for
/// ``HistoryTag``. Steps recorded while a controller's `author` is set carry it, and
/// `undo(by:)` takes back only that author's steps, leaving everyone else's in place.
///
/// ```swift
/// controller.author = "ana"
/// controller.append(edited)
/// try controller.undo(by: "ana")
/// ```
///
/// Authors made of strings or integers can be saved with a history; others fail to encode.
public struct HistoryAuthor: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {

    /// Erased as a tag is: one place decides how a `Hashable & Sendable` value is kept and
    /// which values can be saved.
    let name: HistoryTag

    /// The author's value, as it was given.
    public var base: AnyHashable { name.base }

    /// An author made of `value`.
    public init(_ value: some Hashable & Sendable) {
        // An author of an author is the author itself, so generic code can pass either.
        name = (value as? HistoryAuthor)?.name ?? HistoryTag(value)
    }

    /// An author made of a string.
    public init(stringLiteral value: String) {
        name = HistoryTag(stringLiteral: value)
    }

    /// An author made of an integer (a user's number, say).
    public init(integerLiteral value: Int) {
        name = HistoryTag(integerLiteral: value)
    }
}

extension HistoryAuthor: CustomStringConvertible {
    public var description: String { name.description }
}

extension HistoryAuthor: Codable {

    public init(from decoder: any Decoder) throws {
        name = try HistoryTag(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try name.encode(to: encoder)
    }
}
