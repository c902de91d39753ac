import Foundation

/// Why a history could not be loaded from a ``HistoryArchive``: the archive is damaged, or
/// it was not saved with the value it is loaded with. Nothing is loaded.
public struct HistoryArchiveError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {

    /// What is wrong, in one line.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message, said as a reason the history was not loaded.
    public var description: String { "cannot load the history: \(message)" }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
