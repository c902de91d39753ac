import Foundation

/// Why a history refused a command: undo, redo, a move, a scope's end. Nothing was changed.
///
/// Every refusal of a history, of ``VersioningController`` and of the undoable reducer is a
/// `HistoryError`, with one rule for a step that could not be applied (its reversion refused:
/// a wrong version, or conflicts under ``ConflictPolicy/refuse``): the error is
/// ``stepRefused(_:step:)``, carrying the step's ``ReversionError`` as it is and which step of
/// the move refused. So a caller switches over one type, and finds the location that refused
/// in the wrapped error's ``ReversionError/keyPath``.
///
/// ```swift
/// #expect(throws: HistoryError.unknownTag("published")) { try controller.redo(to: "published") }
/// let error = #expect(throws: HistoryError.self) { try controller.undo(onConflict: .refuse) }
/// #expect(error?.reversionError == .conflict(controller.lastConflicts))
/// ```
///
/// Two errors are equal when they refuse the same thing: the `step` of a refused step takes
/// no part in `==`, so `.stepRefused(.attemptingToRevertWrongVersion)` matches a wrong version
/// at any step of a move.
public enum HistoryError: Error, Sendable {
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
    /// `step` is the step of the move that refused, counted from `1` for the first step the
    /// move takes, when the move walks steps.
    case stepRefused(ReversionError, step: Int? = nil)
    /// A history opened over a ``HistoryStepStore`` could not read a step the command needed,
    /// or the step failed its check (its checksum, its place in the tree): the error names
    /// the step and says what is wrong. ``HistoryArchive/validate(present:)`` checks a whole
    /// archive.
    case unreadableStep(HistoryVersion, HistoryArchiveError)

    /// The reversion's refusal behind ``stepRefused(_:step:)``, or `nil` for the others.
    public var reversionError: ReversionError? {
        if case let .stepRefused(error, _) = self { error } else { nil }
    }

    /// The same error, refused at `step` of a move (unless an inner move already said where).
    @usableFromInline
    func at(step: Int) -> HistoryError {
        if case let .stepRefused(error, nil) = self { .stepRefused(error, step: step) } else { self }
    }
}

extension HistoryError: Hashable {

    /// Whether both refuse the same thing; the `step` of a refused step takes no part.
    public static func == (lhs: HistoryError, rhs: HistoryError) -> Bool {
        switch (lhs, rhs) {
        case let (.stepsOutOfRange(requested, available), .stepsOutOfRange(otherRequested, otherAvailable)):
            requested == otherRequested && available == otherAvailable
        case let (.unknownTag(tag), .unknownTag(other)):
            tag == other
        case let (.tagOutOfReach(tag, location), .tagOutOfReach(otherTag, otherLocation)):
            tag == otherTag && location == otherLocation
        case (.noScopeToPop, .noScopeToPop):
            true
        case let (.unknownVersion(version), .unknownVersion(other)),
             let (.versionOutOfReach(version), .versionOutOfReach(other)):
            version == other
        case let (.destinationOutOfReach(destination), .destinationOutOfReach(other)),
             let (.unsupportedDestination(destination), .unsupportedDestination(other)):
            destination == other
        case let (.stepRefused(error, _), .stepRefused(other, _)):
            error == other
        case let (.unreadableStep(version, error), .unreadableStep(otherVersion, other)):
            version == otherVersion && error == other
        default:
            false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case let .stepsOutOfRange(requested, available): hasher.combine(requested); hasher.combine(available)
        case let .unknownTag(tag), let .tagOutOfReach(tag, _): hasher.combine(tag)
        case .noScopeToPop: break
        case let .unknownVersion(version), let .versionOutOfReach(version): hasher.combine(version)
        case let .destinationOutOfReach(destination), let .unsupportedDestination(destination): hasher.combine(destination)
        case let .stepRefused(error, _): hasher.combine(error)
        case let .unreadableStep(version, error): hasher.combine(version); hasher.combine(error)
        }
    }
}

extension HistoryError: CustomStringConvertible, LocalizedError {

    /// One sentence saying what was refused and where; nothing was changed.
    public var description: String {
        switch self {
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
        case let .stepRefused(error, step):
            return error.sentence(step: step)
        case let .unreadableStep(_, error):
            return "A step the command needs cannot be read: \(error.message); nothing was changed."
        }
    }

    public var errorDescription: String? { description }
}
