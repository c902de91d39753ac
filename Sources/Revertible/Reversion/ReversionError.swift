import Foundation

/// Why a reversion was refused: the value is not what the reversion was made from. Nothing
/// was changed.
///
/// A reversion alone throws it (``Reversion/revert(_:)``). A history that refuses a move
/// because one of its steps refused throws ``HistoryError`` instead, whose
/// ``HistoryError/stepRefused(_:step:)`` carries this error and whose
/// ``HistoryError/step`` says which step of the move it was.
///
/// Compare with the static members, or switch over ``reason``:
///
/// ```swift
/// #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&other) }
/// ```
///
/// Two errors are equal when their reasons are: ``keyPath`` says where the refusal happened,
/// and takes no part in `==`.
public struct ReversionError: Error, Sendable {

    /// What was refused.
    public enum Reason: Hashable, Sendable {
        /// The value does not hold, at a location the reversion writes, what the reversion was
        /// made from.
        case wrongVersion
        /// Someone else changed these locations since the step was made, and the move was
        /// asked to refuse (``ConflictPolicy/refuse``) rather than skip or overwrite them.
        case conflict([ReversionConflict])
    }

    /// What was refused.
    public let reason: Reason
    /// The first location that refused, as written in Swift (`\Activity.title`), when it is
    /// known.
    public let keyPath: String?

    /// An error for `reason`.
    public init(_ reason: Reason, keyPath: String? = nil) {
        self.reason = reason
        self.keyPath = keyPath
    }

    /// The value does not hold, at the locations the reversion writes, what the reversion was
    /// made from. Nothing was changed.
    public static let attemptingToRevertWrongVersion = ReversionError(.wrongVersion)

    /// Other writers changed `conflicts` since the step was made, and the move was asked to
    /// refuse them.
    public static func conflict(_ conflicts: [ReversionConflict]) -> ReversionError {
        ReversionError(.conflict(conflicts), keyPath: conflicts.first?.location)
    }
}

extension ReversionError: Hashable {

    public static func == (lhs: ReversionError, rhs: ReversionError) -> Bool {
        lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(reason)
    }
}

extension ReversionError: CustomStringConvertible, LocalizedError {

    /// One sentence saying what was refused and where; nothing was changed.
    public var description: String {
        sentence(step: nil)
    }

    /// The sentence, saying which step of a move refused when `step` is given (for
    /// ``HistoryError``).
    func sentence(step: Int?) -> String {
        let stepText = step.map { " (at step \($0) of the move)" } ?? ""
        switch reason {
        case .wrongVersion:
            let location = keyPath.map { " at \($0)" } ?? ""
            return "The reversion was made from a different version of the value\(location)\(stepText); nothing was changed."
        case let .conflict(conflicts):
            let list = conflicts.map(\.description).joined(separator: "; ")
            return "Someone else changed what the step left\(stepText): \(list); nothing was changed."
        }
    }

    public var errorDescription: String? { description }
}
