import Foundation

/// Why a history refused a command: undo, redo, a move, a scope's end. Nothing was changed.
///
/// Every refusal of a history, of ``VersioningController`` and of the undoable reducer is a
/// `HistoryError`, with one rule for a step that could not be applied (its reversion refused:
/// a wrong version, or conflicts under ``ConflictPolicy/refuse``): the reason is
/// ``Reason/stepRefused(_:)``, carrying the step's ``ReversionError`` as it is, and ``step``
/// says which step of the move refused. So a caller switches over one type, and finds the
/// location that refused in the wrapped error's ``ReversionError/keyPath``.
///
/// ```swift
/// #expect(throws: HistoryError.unknownTag("published")) { try controller.redo(to: "published") }
/// let error = #expect(throws: HistoryError.self) { try controller.undo(onConflict: .refuse) }
/// #expect(error?.reversionError == .conflict(controller.lastConflicts))
/// ```
///
/// Two errors are equal when their reasons are: ``step`` takes no part in `==`.
public struct HistoryError: Error, Sendable {

    /// What was refused.
    public enum Reason: Hashable, Sendable {
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
        /// The destination is not on the way of this undo (back towards the scope's start) or
        /// redo (forward along the branch redo follows); ``VersioningController/move(to:onConflict:)``
        /// reaches it.
        case destinationOutOfReach(HistoryDestination)
        /// The call takes no destination of this kind: `move(to:)` takes no number of
        /// ``HistoryDestination/steps(_:)``, which only undo and redo have a way to count along.
        case unsupportedDestination(HistoryDestination)
        /// A step of the move could not be applied; the reversion's error says why and where.
        case stepRefused(ReversionError)
    }

    /// What was refused.
    public let reason: Reason
    /// For a move of several steps: the step that refused, counted from `1` for the first
    /// step the move takes.
    public let step: Int?

    /// An error for `reason`.
    public init(_ reason: Reason, step: Int? = nil) {
        self.reason = reason
        self.step = step
    }

    /// The reversion's refusal behind ``Reason/stepRefused(_:)``, or `nil` for the others.
    public var reversionError: ReversionError? {
        if case let .stepRefused(error) = reason { error } else { nil }
    }

    /// A step of the move refused with `error`.
    public static func stepRefused(_ error: ReversionError) -> HistoryError {
        HistoryError(.stepRefused(error))
    }

    /// A move of `requested` steps where the current scope holds `available`.
    public static func stepsOutOfRange(requested: Int, available: Int) -> HistoryError {
        HistoryError(.stepsOutOfRange(requested: requested, available: available))
    }

    /// No version of the history has `tag`.
    public static func unknownTag(_ tag: HistoryTag) -> HistoryError {
        HistoryError(.unknownTag(tag))
    }

    /// `tag` names a version the move cannot reach; `location` says where it is.
    public static func tagOutOfReach(_ tag: HistoryTag, _ location: HistoryTagLocation) -> HistoryError {
        HistoryError(.tagOutOfReach(tag, location))
    }

    /// There is no scope to pop or abandon: the outermost scope always stays.
    public static let noScopeToPop = HistoryError(.noScopeToPop)

    /// No version of the history has the identifier `version`.
    public static func unknownVersion(_ version: HistoryVersion) -> HistoryError {
        HistoryError(.unknownVersion(version))
    }

    /// `version` is outside the current scope.
    public static func versionOutOfReach(_ version: HistoryVersion) -> HistoryError {
        HistoryError(.versionOutOfReach(version))
    }

    /// The same error, refused at `step` of a move.
    @usableFromInline
    func at(step: Int) -> HistoryError {
        HistoryError(reason, step: self.step ?? step)
    }
}

extension HistoryError: Hashable {

    public static func == (lhs: HistoryError, rhs: HistoryError) -> Bool {
        lhs.reason == rhs.reason
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(reason)
    }
}

extension HistoryError: CustomStringConvertible, LocalizedError {

    /// One sentence saying what was refused and where; nothing was changed.
    public var description: String {
        switch reason {
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
        case let .destinationOutOfReach(destination):
            return "\(destination) is not on the way of this undo or redo (move(to:) reaches it); nothing was changed."
        case let .unsupportedDestination(destination):
            return "move(to:) cannot go to \(destination): a number of steps needs the way of undo or redo; nothing was changed."
        case let .stepRefused(error):
            return error.sentence(step: step)
        }
    }

    public var errorDescription: String? { description }
}
