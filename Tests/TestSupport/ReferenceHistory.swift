/// The specification of an undo history, written as plainly as possible: every version is kept
/// whole, so there is no diffing and nothing to get wrong but the rules themselves.
///
/// The randomized tests (the controller's in RevertibleTests, the `undoable` reducer's in
/// UndoableReducerTests) run the same operations on a history and on this model and require
/// the same observable state after each one. It knows nothing of `VersioningController`, so it
/// can specify any history built on the same rules (the `undoable` reducer's, for one).
///
/// The rules:
/// - A scope is a stack of versions: the oldest one undo reaches first, the current version
///   last. Each version after the first is one undo step. Redo walks `ahead`, next version
///   first. Every version has an identity; a scope pushed on a version starts with that very
///   version.
/// - Recording a value equal to the current version makes no step. Recording a new one clears
///   the current scope's redo versions.
/// - A tag names one version: tagging moves it to the current version. A version may have
///   several tags; `tags(inScopeLevel:)` shows the newest. Undo to a tag stops on the tagged
///   version; redo to a tag stops on it too, so it includes the step that made it. Moving to
///   the present's own tag does nothing.
/// - Refusals, which change nothing: a tag no version has (`unknownTag`), a tag in the other
///   direction or outside the current scope (`tagOutOfReach`), a negative number of steps or
///   more than the scope holds, except one step with nothing there, which does nothing
///   (`stepsOutOfRange`), popping or abandoning the outermost scope (`noScopeToPop`).
/// - Undo and redo never leave the current scope. Popping a scope records its current version
///   (the same version, with its tags) on the scope below, so all its steps become one; if it
///   ended equal to where it started, its tags move to that version and there is no step.
///   Abandoning it goes back to where it started.
/// - The limit bounds the undo steps of all scopes together: the oldest versions go first,
///   outermost scope first. Versions no scope holds any more lose their tags.
/// - Untracked parts (properties a type ignores, or that only untracked changes write): a
///   recorded or untracked value's untracked parts are written into every version, as if
///   they had always been so: undo and redo never change them.
/// - Grouping (a debounced burst, or the reducer's grouped actions): a grouped recording
///   replaces the value of the version made by the newest step instead of adding one, while
///   the group is open. A recording that adds an untagged step opens a group; a transaction
///   and every command close it; untracked changes leave it open. A group that comes back to
///   the version before its step loses the step.
public struct ReferenceHistory<Value: Equatable> {

    public struct Version {
        public var id: Int
        public var value: Value
    }

    public struct Scope {
        /// The oldest version undo reaches first, the current version last; never empty.
        public var versions: [Version]
        /// The versions redo goes to, next first.
        public var ahead: [Version] = []

        func contains(_ id: Int) -> Bool {
            versions.contains { $0.id == id } || ahead.contains { $0.id == id }
        }
    }

    public typealias Refusal = ReferenceRefusal

    /// A part of the value no step records: written into every version whenever it changes.
    public struct UntrackedPart {
        let copy: (inout Value, Value) -> Void

        public init<Part>(_ keyPath: WritableKeyPath<Value, Part>) {
            copy = { target, source in target[keyPath: keyPath] = source[keyPath: keyPath] }
        }
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
    /// Tags and the versions they name, oldest first.
    private var tagged: [(tag: AnyHashable, id: Int)] = []
    private var nextID = 1
    private let untracked: [UntrackedPart]

    public init(_ value: Value, limit: Int? = nil, untracked: [UntrackedPart] = []) {
        scopes = [Scope(versions: [Version(id: 0, value: value)])]
        self.limit = limit
        self.untracked = untracked
    }

    // MARK: What a client observes

    public var current: Value { scopes[top].versions.last!.value }
    public var scopeLevel: Int { top }
    public var undoCount: Int { scopes[top].versions.count - 1 }
    public var redoCount: Int { scopes[top].ahead.count }

    /// `nil` for a level that does not exist.
    public func tags(inScopeLevel level: Int) -> (undo: [AnyHashable?], redo: [AnyHashable?])? {
        guard scopes.indices.contains(level) else { return nil }
        return (scopes[level].versions.map { newestTag(of: $0.id) }, scopes[level].ahead.map { newestTag(of: $0.id) })
    }

    /// The tags of the current version, oldest first.
    public var currentTags: [AnyHashable] {
        let id = scopes[top].versions.last!.id
        return tagged.filter { $0.id == id }.map(\.tag)
    }

    private func newestTag(of id: Int) -> AnyHashable? {
        tagged.last { $0.id == id }?.tag
    }

    // MARK: Recording

    /// - Parameters:
    ///   - grouped: The recording joins the open group, if one is open.
    ///   - opensGroup: A step this recording adds opens a group (the controller's appends all
    ///     do; the reducer's only with a grouping key).
    public mutating func record(_ value: Value, tag: AnyHashable? = nil, grouped: Bool = false, opensGroup: Bool = true) {
        adoptUntrackedParts(of: value)
        if grouped, isGroupOpen {
            joinGroup(value)
        } else {
            isGroupOpen = false
            if value != current {
                scopes[top].ahead = []
                scopes[top].versions.append(Version(id: makeID(), value: value))
                forgetRemovedTags()
                trimToLimit()
                isGroupOpen = opensGroup && tag == nil && undoCount > 0
            }
        }
        if let tag { self.tag(tag) }
    }

    /// A change no step records: `value` must differ from the current version only in
    /// untracked parts, or the model cannot say what the history does (the runs report it).
    public mutating func recordWithoutTracking(_ value: Value) {
        adoptUntrackedParts(of: value)
        if value != current { misuse = "an untracked change changed more than untracked parts" }
    }

    /// Set when the model was used outside its rules; the runs report it as a failure.
    public private(set) var misuse: String?

    private mutating func adoptUntrackedParts(of value: Value) {
        guard !untracked.isEmpty else { return }
        for level in scopes.indices {
            for index in scopes[level].versions.indices {
                for part in untracked { part.copy(&scopes[level].versions[index].value, value) }
            }
            for index in scopes[level].ahead.indices {
                for part in untracked { part.copy(&scopes[level].ahead[index].value, value) }
            }
        }
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
        tagged.removeAll { $0.tag == tag }
        tagged.append((tag, scopes[top].versions.last!.id))
    }

    // MARK: Moving within the current scope

    @discardableResult
    public mutating func undo(steps: Int = 1) -> Refusal? {
        isGroupOpen = false
        if steps == 1, undoCount == 0 { return nil }
        guard (0...undoCount).contains(steps) else { return .stepsOutOfRange }
        for _ in 0..<steps {
            scopes[top].ahead.insert(scopes[top].versions.removeLast(), at: 0)
        }
        return nil
    }

    @discardableResult
    public mutating func redo(steps: Int = 1) -> Refusal? {
        isGroupOpen = false
        if steps == 1, redoCount == 0 { return nil }
        guard (0...redoCount).contains(steps) else { return .stepsOutOfRange }
        for _ in 0..<steps {
            scopes[top].versions.append(scopes[top].ahead.removeFirst())
        }
        trimToLimit()
        return nil
    }

    @discardableResult
    public mutating func undo(to tag: AnyHashable) -> Refusal? {
        isGroupOpen = false
        guard let id = tagged.last(where: { $0.tag == tag })?.id else { return .unknownTag }
        if let index = scopes[top].versions.lastIndex(where: { $0.id == id }) {
            return undo(steps: undoCount - index)
        }
        return scopes.contains { $0.contains(id) } ? .tagOutOfReach : .unknownTag
    }

    @discardableResult
    public mutating func redo(to tag: AnyHashable) -> Refusal? {
        isGroupOpen = false
        guard let id = tagged.last(where: { $0.tag == tag })?.id else { return .unknownTag }
        if scopes[top].versions.last!.id == id { return nil }
        if let index = scopes[top].ahead.firstIndex(where: { $0.id == id }) {
            return redo(steps: index + 1)
        }
        return scopes.contains { $0.contains(id) } ? .tagOutOfReach : .unknownTag
    }

    // MARK: Scopes

    public mutating func pushScope() {
        isGroupOpen = false
        scopes.append(Scope(versions: [scopes[top].versions.last!]))
    }

    @discardableResult
    public mutating func popScope() -> Refusal? {
        isGroupOpen = false
        guard top > 0 else { return .noScopeToPop }
        let end = scopes.removeLast().versions.last!
        let start = scopes[top].versions.last!
        if end.value == start.value {
            for index in tagged.indices where tagged[index].id == end.id { tagged[index].id = start.id }
        } else {
            scopes[top].ahead = []
            scopes[top].versions.append(end)
        }
        forgetRemovedTags()
        trimToLimit()
        return nil
    }

    @discardableResult
    public mutating func discardScope() -> Refusal? {
        isGroupOpen = false
        guard top > 0 else { return .noScopeToPop }
        scopes.removeLast()
        forgetRemovedTags()
        return nil
    }

    // MARK: Clearing

    public mutating func removeAll() {
        isGroupOpen = false
        tagged = []
        scopes = [Scope(versions: [Version(id: makeID(), value: current)])]
    }

    private var top: Int { scopes.count - 1 }

    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func forgetRemovedTags() {
        tagged.removeAll { entry in !scopes.contains { $0.contains(entry.id) } }
    }

    private mutating func trimToLimit() {
        guard let limit else { return }
        while scopes.reduce(0, { $0 + $1.versions.count - 1 }) > max(limit, 0) {
            let oldest = scopes.firstIndex { $0.versions.count > 1 }!
            scopes[oldest].versions.removeFirst()
        }
        if undoCount == 0 { isGroupOpen = false }
        forgetRemovedTags()
    }
}

/// Why the model refuses an operation; it then changes nothing.
public enum ReferenceRefusal: String, Sendable, Equatable {
    case stepsOutOfRange, unknownTag, tagOutOfReach, noScopeToPop
}
