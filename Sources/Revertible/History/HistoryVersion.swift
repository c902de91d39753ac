/// The identifier of one version in a history: stable for as long as the version is kept,
/// never reused for another.
///
/// ```swift
/// let saved = controller.currentVersionID
/// try controller.move(to: .version(saved))
/// ```
public struct HistoryVersion: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Versions are numbered in the order they were made.
    public var rawValue: UInt64

    /// The version numbered `rawValue`.
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Made earlier.
    public static func < (lhs: HistoryVersion, rhs: HistoryVersion) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `v` and the number, as history views show it.
    public var description: String { "v\(rawValue)" }
}
