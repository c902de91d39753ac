/// A name for a version in a history: any `Hashable & Sendable` value, or a string or integer
/// literal. History views (`tags()`, `steps()`, `currentVersionTags`) all report this type.
///
/// ```swift
/// controller.tag("before import")
/// controller.append(imported)
/// try controller.undo(to: "before import")
/// ```
public struct HistoryTag: Hashable, @unchecked Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    // `@unchecked`: `AnyHashable` is not `Sendable`, but every initializer takes a
    // `Sendable` value.

    /// The tag's value, as `tags` reports it.
    public let base: AnyHashable

    /// A tag made of `value`.
    public init(_ value: some Hashable & Sendable) {
        // A tag of a tag is the tag itself, so generic code can pass either.
        base = (value as? HistoryTag)?.base ?? AnyHashable(value)
    }

    /// A tag already erased, taken from a history whose tags were all made `Sendable`.
    package init(erased base: AnyHashable) {
        self.base = base
    }

    /// A tag made of a string.
    public init(stringLiteral value: String) {
        base = AnyHashable(value)
    }

    /// A tag made of an integer, so `tags().undo == [nil, 2]` compares as it reads.
    public init(integerLiteral value: Int) {
        base = AnyHashable(value)
    }
}

extension HistoryTag: CustomStringConvertible {
    public var description: String { String(describing: base.base) }
}

/// Tags made of strings or integers can be saved; other tags fail to encode.
extension HistoryTag: Codable {

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int.self) {
            self.init(integer)
        } else {
            self.init(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch base.base {
        case let string as String: try container.encode(string)
        case let integer as Int: try container.encode(integer)
        default:
            throw EncodingError.invalidValue(base.base, .init(
                codingPath: encoder.codingPath,
                debugDescription: "Only String and Int history tags can be encoded."
            ))
        }
    }
}
