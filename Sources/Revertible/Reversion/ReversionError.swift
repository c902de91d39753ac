import Foundation

/// Why a reversion, or a move through a history, was refused. Nothing was changed, except
/// for ``Reason/stepNotSquashed(_:)``, which reports a scope that was ended all the same.
///
/// Compare with the static members, or switch over ``reason``:
///
/// ```swift
/// #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&other) }
/// ```
///
/// Two errors are equal when their reasons are: ``keyPath`` and ``step`` say where the
/// refusal happened, and take no part in `==`.
public struct ReversionError: Error, Sendable {

    /// What was refused.
    public enum Reason: Hashable, Sendable {
        /// The value does not hold, at a location the reversion writes, what the reversion was
        /// made from.
        case wrongVersion
        /// A move of more steps than the current scope holds, or of a negative number.
        case stepsOutOfRange(requested: Int, available: Int)
        /// No version of the history has this tag.
        case unknownTag(HistoryTag)
        /// The tag names a version the move cannot reach: one in the other direction, or
        /// outside the current scope.
        case tagOutOfReach(HistoryTag, HistoryTagLocation)
        /// Popping or abandoning a scope at the outermost scope, which always stays.
        case noScopeToPop
        /// No version of the history has this identifier (any more).
        case unknownVersion(HistoryVersion)
        /// The version is outside the current scope: pop or abandon the scope first.
        case versionOutOfReach(HistoryVersion)
        /// A scope was ended (popped, or abandoned and then popped because it could not be taken
        /// back), but the step to this version no longer applies: a change made without a step
        /// overlaps it. What the steps after it changed is squashed into one step on the scope
        /// below; what it and the steps before it changed stays in the value with no step to
        /// take it back. The scope is gone either way, so a loop that ends scopes always ends.
        case stepNotSquashed(HistoryVersion)
        /// Someone else changed these locations since the step was made, and the move was
        /// asked to refuse (``ConflictPolicy/refuse``) rather than skip or overwrite them.
        case conflict([ReversionConflict])
    }

    /// What was refused.
    public let reason: Reason
    /// For ``Reason/wrongVersion``: the location whose content did not match, as written in
    /// Swift (`\Activity.title`), when it is known.
    public let keyPath: String?
    /// For a move of several steps: the step that refused, counted from `1` for the first
    /// step the move takes.
    public let step: Int?

    /// An error for `reason`.
    public init(_ reason: Reason, keyPath: String? = nil, step: Int? = nil) {
        self.reason = reason
        self.keyPath = keyPath
        self.step = step
    }

    /// The value does not hold, at the locations the reversion writes, what the reversion was
    /// made from. Nothing was changed.
    public static let attemptingToRevertWrongVersion = ReversionError(.wrongVersion)

    /// A move of `requested` steps where the current scope holds `available`.
    public static func stepsOutOfRange(requested: Int, available: Int) -> ReversionError {
        ReversionError(.stepsOutOfRange(requested: requested, available: available))
    }

    /// No version of the history has `tag`.
    public static func unknownTag(_ tag: HistoryTag) -> ReversionError {
        ReversionError(.unknownTag(tag))
    }

    /// `tag` names a version the move cannot reach; `location` says where it is.
    public static func tagOutOfReach(_ tag: HistoryTag, _ location: HistoryTagLocation) -> ReversionError {
        ReversionError(.tagOutOfReach(tag, location))
    }

    /// There is no scope to pop or abandon: the outermost scope always stays.
    public static let noScopeToPop = ReversionError(.noScopeToPop)

    /// No version of the history has the identifier `version`.
    public static func unknownVersion(_ version: HistoryVersion) -> ReversionError {
        ReversionError(.unknownVersion(version))
    }

    /// `version` is outside the current scope.
    public static func versionOutOfReach(_ version: HistoryVersion) -> ReversionError {
        ReversionError(.versionOutOfReach(version))
    }

    /// The same error, refused at `step` of a move.
    func at(step: Int) -> ReversionError {
        ReversionError(reason, keyPath: keyPath, step: self.step ?? step)
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
        let stepText = step.map { " (at step \($0) of the move)" } ?? ""
        switch reason {
        case .wrongVersion:
            let location = keyPath.map { " at \($0)" } ?? ""
            return "The reversion was made from a different version of the value\(location)\(stepText); nothing was changed."
        case let .stepsOutOfRange(requested, available):
            return requested < 0
                ? "Cannot move \(requested) steps: the count must not be negative; nothing was changed."
                : "Cannot move \(requested) steps: the current scope has \(available); nothing was changed."
        case let .unknownTag(tag):
            return "No version is tagged “\(tag)”; nothing was changed."
        case let .tagOutOfReach(tag, location):
            return "The version tagged “\(tag)” is \(location), out of reach of this move; nothing was changed."
        case .noScopeToPop:
            return "There is no scope to pop: the outermost scope always stays; nothing was changed."
        case let .unknownVersion(version):
            return "The history has no version \(version); nothing was changed."
        case let .versionOutOfReach(version):
            return "Version \(version) is outside the current scope; nothing was changed."
        case let .conflict(conflicts):
            let list = conflicts.map(\.description).joined(separator: "; ")
            return "Someone else changed what the step left\(stepText): \(list); nothing was changed."
        case let .stepNotSquashed(version):
            let location = keyPath.map { " at \($0)" } ?? ""
            return "The scope was ended, but the step to \(version) no longer applies\(location) (a change made without a step overlaps it): what it and the steps before it changed stays, with no step to take it back; the rest is one step on the scope below."
        }
    }

    public var errorDescription: String? { description }
}
