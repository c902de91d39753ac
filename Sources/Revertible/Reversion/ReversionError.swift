import Foundation

/// Why a reversion was refused: the value is not what the reversion was made from, or
/// another writer changed what a step wrote. Nothing was changed.
///
/// A reversion alone throws it (``Reversion/revert(_:)``). A history that refuses a move
/// because one of its steps refused throws ``HistoryError`` instead, whose
/// ``HistoryError/stepRefused(_:step:)`` carries this error and says which step of the move
/// it was.
///
/// Compare with the seed's ``attemptingToRevertWrongVersion``, or switch over the cases:
///
/// ```swift
/// #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&other) }
/// ```
///
/// Two errors are equal when they refuse the same thing: ``keyPath`` says where the refusal
/// happened, and takes no part in `==`.
public enum ReversionError: Error, Sendable {
    /// The value does not hold, at a location the reversion writes, what the reversion was
    /// made from. `keyPath` is the first location that refused, as written in Swift
    /// (`\Activity.title`), when it is known.
    case wrongVersion(keyPath: String? = nil)
    /// Someone else changed these locations since the step was made, and the move was
    /// asked to refuse (``ConflictPolicy/refuse``) rather than skip or overwrite them.
    case conflict([ReversionConflict])

    /// The value does not hold, at the locations the reversion writes, what the reversion was
    /// made from (the original library's name): equal to every ``wrongVersion(keyPath:)``.
    public static let attemptingToRevertWrongVersion = ReversionError.wrongVersion()

    /// The first location that refused, as written in Swift (`\Activity.title`), when it is
    /// known: a wrong version's own, or the first conflict's.
    public var keyPath: String? {
        switch self {
        case let .wrongVersion(keyPath): keyPath
        case let .conflict(conflicts): conflicts.first?.location
        }
    }
}

extension ReversionError: Hashable {

    /// Whether both refuse the same thing; a wrong version's ``keyPath`` takes no part.
    public static func == (lhs: ReversionError, rhs: ReversionError) -> Bool {
        switch (lhs, rhs) {
        case (.wrongVersion, .wrongVersion): true
        case let (.conflict(conflicts), .conflict(others)): conflicts == others
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .wrongVersion: hasher.combine(0)
        case let .conflict(conflicts): hasher.combine(1); hasher.combine(conflicts)
        }
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
        switch self {
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
