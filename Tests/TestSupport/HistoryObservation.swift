import Revertible

/// What a client observes of a history besides its value (scope level, counts, the tags of
/// every scope, the current version's tags), read the same way from a controller, an
/// undoable state or ``ReferenceHistory`` so the randomized runs compare them field by field.
public struct HistoryObservation: Equatable {
    public typealias Tags = (undo: [HistoryTag?], redo: [HistoryTag?])

    public var scopeLevel: Int
    public var undoCount: Int
    public var redoCount: Int
    public var hasUndo: Bool
    public var hasRedo: Bool
    /// `tags(inScopeLevel:)` of every level, and of one past the innermost (`nil`).
    public var tags: [Tags?]
    public var currentTags: [AnyHashable]
    /// The identity of the current version.
    public var currentVersion: Int

    public init(
        scopeLevel: Int,
        undoCount: Int,
        redoCount: Int,
        hasUndo: Bool,
        hasRedo: Bool,
        tags: (Int) -> Tags?,
        currentTags: [AnyHashable],
        currentVersion: Int
    ) {
        self.scopeLevel = scopeLevel
        self.undoCount = undoCount
        self.redoCount = redoCount
        self.hasUndo = hasUndo
        self.hasRedo = hasRedo
        self.tags = (0...scopeLevel + 1).map(tags)
        self.currentTags = currentTags
        self.currentVersion = currentVersion
    }

    /// What a client observes of `controller`'s history.
    public init<Root, Value, Failure>(_ controller: VersioningController<Root, Value, Failure>) {
        self.init(
            scopeLevel: controller.scopeLevel,
            undoCount: controller.undoCount,
            redoCount: controller.redoCount,
            hasUndo: controller.hasUndo,
            hasRedo: controller.hasRedo,
            tags: controller.tags(inScopeLevel:),
            currentTags: controller.currentVersionTags.map(\.base),
            currentVersion: Int(controller.currentVersionID.rawValue)
        )
    }

    /// What the model says a client should observe.
    public init<Value>(_ model: ReferenceHistory<Value>) {
        self.init(
            scopeLevel: model.scopeLevel,
            undoCount: model.undoCount,
            redoCount: model.redoCount,
            hasUndo: model.undoCount > 0,
            hasRedo: model.redoCount > 0,
            tags: model.tags(inScopeLevel:),
            currentTags: model.currentTags,
            currentVersion: model.currentID
        )
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.firstDifference(from: rhs) == nil
    }

    /// The first field that differs from `expected`, named, for a failure message.
    public func firstDifference(from expected: Self) -> (kind: String, message: String)? {
        let counts = [
            ("scopeLevel", scopeLevel, expected.scopeLevel),
            ("undoCount", undoCount, expected.undoCount),
            ("redoCount", redoCount, expected.redoCount),
            ("hasUndo", hasUndo ? 1 : 0, expected.hasUndo ? 1 : 0),
            ("hasRedo", hasRedo ? 1 : 0, expected.hasRedo ? 1 : 0),
        ]
        for (name, actual, wanted) in counts where actual != wanted {
            return (name, "\(name) is \(actual), the model's is \(wanted)")
        }
        for (level, (actual, wanted)) in zip(tags, expected.tags).enumerated()
        where actual?.undo != wanted?.undo || actual?.redo != wanted?.redo {
            return ("tags", "tags(inScopeLevel: \(level)) is \(String(describing: actual)), the model's is \(String(describing: wanted))")
        }
        if currentVersion != expected.currentVersion {
            return ("version", "the current version is \(currentVersion), the model's is \(expected.currentVersion)")
        }
        if currentTags != expected.currentTags {
            return ("tags", "currentVersionTags is \(currentTags), the model's is \(expected.currentTags)")
        }
        return nil
    }
}

extension HistoryError {
    /// The model's name for this refusal; `nil` for a step that refused (a wrong version or
    /// a conflict), which the model never expects.
    public var refusal: ReferenceRefusal? {
        switch self {
        case .stepsOutOfRange: .stepsOutOfRange
        case .unknownTag: .unknownTag
        case .tagOutOfReach: .tagOutOfReach
        case .noScopeToPop: .noScopeToPop
        case .unknownVersion: .unknownVersion
        case .versionOutOfReach: .versionOutOfReach
        case .stepRefused, .destinationOutOfReach, .unsupportedDestination, .unreadableStep: nil
        }
    }
}
