/// The specification of an undo history, written as plainly as possible: every version is kept
/// whole, so there is no diffing and nothing to get wrong but the rules themselves.
///
/// The randomized tests (the controller's in RevertibleTests, the `undoable` reducer's in
/// UndoableReducerTests) run the same operations on a history and on this model and require
/// the same observable state after each one. It knows nothing of `VersioningController`, so it
/// can specify any history built on the same rules (the `undoable` reducer's, for one).
///
/// The rules:
/// - A scope is a stack of versions: its base version first, the current version last. Each
///   version after the base is one undo step. Redo walks `ahead`, next version first.
/// - Recording a value equal to the current version makes no step. Recording a new one clears
///   the current scope's redo versions.
/// - A tag names one version: tagging moves it, from wherever it was, to the current version.
///   Undo to a tag stops on the tagged version; redo to a tag stops on it too, so it includes the
///   step that made it. A tag the current scope does not hold changes nothing.
/// - Undo and redo never leave the current scope. Pushing a scope starts one on the current
///   version, untagged. Popping it records its current version, with its tag, on the scope below
///   (so all its steps become one, or none if it ended where it started). Discarding it goes
///   back to where it started.
/// - The limit bounds the undo steps of all scopes together: the oldest versions go first,
///   outermost scope first, so a scope's next version becomes its base, keeping its tag.
/// - Grouping (a debounced burst, or the reducer's grouped actions): a grouped recording
///   replaces the version made by the newest step instead of adding one, while the group is
///   open. A recording that adds an untagged step opens a group; every other operation closes
///   it. A group that comes back to the version before its step loses the step.
public struct ReferenceHistory<Value: Equatable> {

    public struct Version {
        public var value: Value
        public var tag: AnyHashable?
    }

    public struct Scope {
        /// The base version first, the current version last; never empty.
        public var versions: [Version]
        /// The versions redo goes to, next first.
        public var ahead: [Version] = []
    }

    /// Outermost first; never empty.
    public private(set) var scopes: [Scope]
    public var limit: Int? {
        didSet {
            isGroupOpen = false
            trimToLimit()
        }
    }
    public private(set) var isGroupOpen = false

    public init(_ value: Value, limit: Int? = nil) {
        scopes = [Scope(versions: [Version(value: value)])]
        self.limit = limit
    }

    // MARK: What a client observes

    public var current: Value { scopes[top].versions.last!.value }
    public var scopeLevel: Int { top }
    public var undoCount: Int { scopes[top].versions.count - 1 }
    public var redoCount: Int { scopes[top].ahead.count }

    public func tags(inScopeLevel level: Int) -> (undo: [AnyHashable?], redo: [AnyHashable?]) {
        guard scopes.indices.contains(level) else { return ([], []) }
        return (scopes[level].versions.map(\.tag), scopes[level].ahead.map(\.tag))
    }

    // MARK: Recording

    public mutating func record(_ value: Value, tag: AnyHashable? = nil, grouped: Bool = false) {
        if grouped, isGroupOpen {
            joinGroup(value)
        } else {
            isGroupOpen = false
            if value != current {
                scopes[top].ahead = []
                scopes[top].versions.append(Version(value: value))
                trimToLimit()
                isGroupOpen = tag == nil && undoCount > 0
            }
        }
        if let tag { self.tag(tag) }
    }

    private mutating func joinGroup(_ value: Value) {
        let versions = scopes[top].versions
        if value == versions[versions.count - 2].value {
            scopes[top].versions.removeLast()
            isGroupOpen = false
        } else {
            scopes[top].versions[versions.count - 1].value = value
        }
    }

    public mutating func tag(_ tag: AnyHashable) {
        isGroupOpen = false
        for level in scopes.indices {
            for index in scopes[level].versions.indices where scopes[level].versions[index].tag == tag {
                scopes[level].versions[index].tag = nil
            }
            for index in scopes[level].ahead.indices where scopes[level].ahead[index].tag == tag {
                scopes[level].ahead[index].tag = nil
            }
        }
        scopes[top].versions[scopes[top].versions.count - 1].tag = tag
    }

    // MARK: Moving within the current scope

    public mutating func undo(steps: Int = 1) {
        isGroupOpen = false
        for _ in 0..<max(0, min(steps, undoCount)) {
            scopes[top].ahead.insert(scopes[top].versions.removeLast(), at: 0)
        }
    }

    public mutating func redo(steps: Int = 1) {
        isGroupOpen = false
        for _ in 0..<max(0, min(steps, redoCount)) {
            scopes[top].versions.append(scopes[top].ahead.removeFirst())
        }
    }

    public mutating func undo(to tag: AnyHashable) {
        isGroupOpen = false
        guard let index = scopes[top].versions.lastIndex(where: { $0.tag == tag }) else { return }
        undo(steps: undoCount - index)
    }

    public mutating func redo(to tag: AnyHashable) {
        isGroupOpen = false
        guard let index = scopes[top].ahead.firstIndex(where: { $0.tag == tag }) else { return }
        redo(steps: index + 1)
    }

    // MARK: Scopes

    public mutating func pushScope() {
        isGroupOpen = false
        scopes.append(Scope(versions: [Version(value: current)]))
    }

    public mutating func popScope() {
        isGroupOpen = false
        guard top > 0 else { return }
        let end = scopes.removeLast().versions.last!
        record(end.value, tag: end.tag)
        isGroupOpen = false
    }

    public mutating func discardScope() {
        isGroupOpen = false
        guard top > 0 else { return }
        scopes.removeLast()
    }

    // MARK: Clearing

    public mutating func removeAll() {
        isGroupOpen = false
        scopes = [Scope(versions: [Version(value: current)])]
    }

    private var top: Int { scopes.count - 1 }

    private mutating func trimToLimit() {
        guard let limit else { return }
        while scopes.reduce(0, { $0 + $1.versions.count - 1 }) > max(limit, 0) {
            let oldest = scopes.firstIndex { $0.versions.count > 1 }!
            scopes[oldest].versions.removeFirst()
        }
        if undoCount == 0 { isGroupOpen = false }
    }
}
