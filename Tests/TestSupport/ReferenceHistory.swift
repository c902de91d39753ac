import Revertible
/// The specification of an undo history, written as plainly as possible: every version is kept
/// whole, so there is no diffing and nothing to get wrong but the rules themselves.
///
/// The randomized tests (the controller's in RevertibleTests, the `undoable` reducer's in
/// UndoableReducerTests) run the same operations on a history and on this model and require
/// the same observable state after each one. It knows nothing of `VersioningController`, so it
/// can specify any history built on the same rules (the `undoable` reducer's, for one).
///
/// The rules:
/// - A scope is a tree of versions rooted at the oldest version undo reaches (its floor).
///   Undo walks up from the current version; redo walks down the branch visited or made
///   last. Every version has an identity, numbered in the order versions are made; a scope
///   pushed on a version starts with that very version.
/// - Recording a value equal to the current version makes no step. Recording a new one adds a
///   version after the current one; the branch redo would have taken stays.
/// - A tag names one version: tagging moves it to the current version. A version may have
///   several tags; `tags(inScopeLevel:)` shows the newest, along the path and the redo branch.
///   Undo to a tag stops on the tagged version; redo to a tag stops on it too, so it includes
///   the step that made it. Moving to the present's own tag does nothing.
/// - A move to a version (by identity, by tag, or by creation order) goes up to the nearest
///   common ancestor and down again, and makes that branch the one redo follows. A move by
///   creation order past the oldest or newest version of the scope stops there; so do the
///   moves to the oldest and to the newest version.
/// - Refusals, which change nothing: a tag no version has (`unknownTag`), a tag in the other
///   direction, on another branch or outside the current scope (`tagOutOfReach`), a negative
///   number of steps or more than there are, except one undo or redo with nothing there,
///   which does nothing (`stepsOutOfRange`), popping or abandoning the outermost scope
///   (`noScopeToPop`), a version no scope has (`unknownVersion`) or one outside the current
///   scope (`versionOutOfReach`).
/// - Popping a scope records its current version (the same version, with its tags) after the
///   current version of the scope below, so all its steps become one; if it ended equal to
///   where it started, its tags move to that version and there is no step; the tags it moved
///   stay moved. Abandoning it goes back to where it started, and each tag it moved goes back
///   to the version it named before the scope first moved it (or goes, if no scope holds that
///   version any more).
/// - The limit bounds the steps of the current scope (every branch): first the oldest versions
///   off the path from its floor to its current version (leaves first), then the oldest on the
///   path. A scope never costs anything older than its own start: the scopes below keep their
///   steps until it ends, and the limit applies to the scope below when it is popped or
///   abandoned. Versions no scope holds any more lose their tags.
/// - Untracked parts (properties a type ignores, or that only untracked changes write): a
///   recorded or untracked value's untracked parts are written into every version, as if
///   they had always been so: no move ever changes them.
/// - Grouping (a debounced burst, or the reducer's grouped actions): a grouped recording
///   replaces the value of the current version instead of adding one, while the group is
///   open. A recording that adds an untagged step opens a group (if the caller's grouping
///   opens groups); a transaction and every command close it, `stopGrouping` included;
///   untracked changes leave it open. A group that comes back to the version before its step
///   loses the step.
public struct ReferenceHistory<Value: Equatable> {

    public struct Version {
        public var id: Int
        public var value: Value
        /// `nil` for the floor.
        public var parent: Int?
    }

    public struct Scope {
        public var floor: Int
        public var current: Int
        public var versions: [Int: Version]
        /// The versions after each version; redo follows the last.
        var children: [Int: [Int]] = [:]
        /// The tags this scope moved, with the version each named before its first move here.
        var movedTags: [(tag: AnyHashable, id: Int)] = []

        init(_ version: Version) {
            floor = version.id
            current = version.id
            versions = [version.id: Version(id: version.id, value: version.value, parent: nil)]
        }

        /// The floor first, the current version last.
        var path: [Int] {
            var path = [current]
            while let parent = versions[path[0]]!.parent { path.insert(parent, at: 0) }
            return path
        }

        /// The versions redo goes to, next first.
        var ahead: [Int] {
            var chain: [Int] = []
            var id = current
            while let next = children[id]?.last {
                chain.append(next)
                id = next
            }
            return chain
        }

        var stepCount: Int { versions.count - 1 }

        func contains(_ id: Int) -> Bool { versions[id] != nil }

        mutating func add(_ version: Version) {
            versions[version.id] = version
            children[version.parent!, default: []].append(version.id)
            current = version.id
        }

        mutating func remove(_ id: Int) {
            let parent = versions.removeValue(forKey: id)!.parent!
            children[parent]!.removeAll { $0 == id }
            if children[parent]!.isEmpty { children[parent] = nil }
        }

        /// Makes `id` the branch redo follows from its parent.
        mutating func markVisited(_ id: Int) {
            guard let parent = versions[id]?.parent else { return }
            children[parent]!.removeAll { $0 == id }
            children[parent]!.append(id)
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
        scopes = [Scope(Version(id: 0, value: value, parent: nil))]
        self.limit = limit
        self.untracked = untracked
    }

    // MARK: What a client observes

    public var current: Value { scopes[top].versions[scopes[top].current]!.value }
    public var currentID: Int { scopes[top].current }
    public var scopeLevel: Int { top }
    public var undoCount: Int { scopes[top].path.count - 1 }
    public var redoCount: Int { scopes[top].ahead.count }

    /// `nil` for a level that does not exist.
    public func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])? {
        guard scopes.indices.contains(level) else { return nil }
        return (scopes[level].path.map(newestTag(of:)), scopes[level].ahead.map(newestTag(of:)))
    }

    /// The tags of the current version, oldest first.
    public var currentTags: [AnyHashable] {
        tagged.filter { $0.id == currentID }.map(\.tag)
    }

    /// The versions of the current scope, in the order they were made.
    public var versionIDs: [Int] { scopes[top].versions.keys.sorted() }

    /// The version of the current scope at `place` in the order versions were made (modulo
    /// their count); for a negative place, an identity no version ever had.
    public func versionID(atPlace place: Int) -> Int {
        guard place >= 0 else { return 1_000_000_000 }
        let ids = versionIDs
        return ids[place % ids.count]
    }

    private func newestTag(of id: Int) -> HistoryTag? {
        tagged.last { $0.id == id }.map { HistoryTag(erased: $0.tag) }
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
                scopes[top].add(Version(id: makeID(), value: value, parent: currentID))
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
            for id in scopes[level].versions.keys {
                for part in untracked { part.copy(&scopes[level].versions[id]!.value, value) }
            }
        }
    }

    private mutating func joinGroup(_ value: Value) {
        let id = currentID
        let parent = scopes[top].versions[id]!.parent!
        if value == scopes[top].versions[parent]!.value {
            scopes[top].current = parent
            scopes[top].remove(id)
            isGroupOpen = false
        } else {
            scopes[top].versions[id]!.value = value
        }
    }

    /// Saving and loading a history closes its open group and changes nothing else.
    public mutating func reload() {
        isGroupOpen = false
    }

    public mutating func tag(_ tag: AnyHashable) {
        isGroupOpen = false
        if let previous = taggedVersion(tag), previous != currentID, top > 0,
           !scopes[top].movedTags.contains(where: { $0.tag == tag }) {
            scopes[top].movedTags.append((tag, previous))
        }
        tagged.removeAll { $0.tag == tag }
        tagged.append((tag, currentID))
    }

    // MARK: Moving within the current scope

    @discardableResult
    public mutating func undo(steps: Int = 1) -> Refusal? {
        isGroupOpen = false
        if steps == 1, undoCount == 0 { return nil }
        guard (0...undoCount).contains(steps) else { return .stepsOutOfRange }
        let path = scopes[top].path
        moveWithinScope(to: path[path.count - 1 - steps])
        return nil
    }

    @discardableResult
    public mutating func redo(steps: Int = 1) -> Refusal? {
        isGroupOpen = false
        if steps == 1, redoCount == 0 { return nil }
        guard (0...redoCount).contains(steps) else { return .stepsOutOfRange }
        if steps > 0 { moveWithinScope(to: scopes[top].ahead[steps - 1]) }
        return nil
    }

    @discardableResult
    public mutating func undo(to tag: AnyHashable) -> Refusal? {
        isGroupOpen = false
        guard let id = taggedVersion(tag) else { return .unknownTag }
        if let index = scopes[top].path.lastIndex(of: id) {
            return undo(steps: undoCount - index)
        }
        return .tagOutOfReach
    }

    @discardableResult
    public mutating func redo(to tag: AnyHashable) -> Refusal? {
        isGroupOpen = false
        guard let id = taggedVersion(tag) else { return .unknownTag }
        if id == currentID { return nil }
        if let index = scopes[top].ahead.firstIndex(of: id) {
            return redo(steps: index + 1)
        }
        return .tagOutOfReach
    }

    /// Moves to the version `id` of the current scope.
    @discardableResult
    public mutating func move(toVersion id: Int) -> Refusal? {
        isGroupOpen = false
        guard scopes[top].contains(id) else {
            return scopes.contains { $0.contains(id) } ? .versionOutOfReach : .unknownVersion
        }
        moveWithinScope(to: id)
        return nil
    }

    @discardableResult
    public mutating func move(toTag tag: AnyHashable) -> Refusal? {
        isGroupOpen = false
        guard let id = taggedVersion(tag) else { return .unknownTag }
        guard scopes[top].contains(id) else { return .tagOutOfReach }
        moveWithinScope(to: id)
        return nil
    }

    /// Moves `count` versions earlier (negative: later) in the order they were made, stopping
    /// at the oldest or newest version.
    @discardableResult
    public mutating func move(earlierBy count: Int) -> Refusal? {
        isGroupOpen = false
        let ids = versionIDs
        let index = min(max(ids.firstIndex(of: currentID)! - count, 0), ids.count - 1)
        moveWithinScope(to: ids[index])
        return nil
    }

    /// Moves to the oldest version of the current scope (`oldest: true`) or the one made last.
    @discardableResult
    public mutating func move(toOldest oldest: Bool) -> Refusal? {
        isGroupOpen = false
        moveWithinScope(to: oldest ? versionIDs.first! : versionIDs.last!)
        return nil
    }

    /// Ends the open group: the next grouped recording adds a version.
    public mutating func stopGrouping() {
        isGroupOpen = false
    }

    /// The version `tag` names, if any scope still has it.
    private func taggedVersion(_ tag: AnyHashable) -> Int? {
        tagged.last { $0.tag == tag }?.id
    }

    /// Moves to `id` through the nearest common ancestor: every version left on the way up,
    /// then every version on the way down, becomes the branch redo follows from its parent.
    private mutating func moveWithinScope(to id: Int) {
        var up = currentID
        while !scopes[top].isAncestor(up, of: id) {
            scopes[top].markVisited(up)
            up = scopes[top].versions[up]!.parent!
        }
        var down = id
        var descent: [Int] = []
        while down != up {
            descent.append(down)
            down = scopes[top].versions[down]!.parent!
        }
        for version in descent.reversed() { scopes[top].markVisited(version) }
        scopes[top].current = id
    }

    // MARK: Scopes

    public mutating func pushScope() {
        isGroupOpen = false
        scopes.append(Scope(scopes[top].versions[currentID]!))
    }

    @discardableResult
    public mutating func popScope() -> Refusal? {
        isGroupOpen = false
        guard top > 0 else { return .noScopeToPop }
        let popped = scopes.removeLast()
        for moved in popped.movedTags where top > 0 && !scopes[top].movedTags.contains(where: { $0.tag == moved.tag }) {
            scopes[top].movedTags.append(moved)
        }
        let end = popped.versions[popped.current]!
        if end.value == current {
            for index in tagged.indices where tagged[index].id == end.id { tagged[index].id = currentID }
        } else {
            scopes[top].add(Version(id: end.id, value: end.value, parent: currentID))
        }
        forgetRemovedTags()
        trimToLimit()
        return nil
    }

    @discardableResult
    public mutating func discardScope() -> Refusal? {
        isGroupOpen = false
        guard top > 0 else { return .noScopeToPop }
        for (tag, id) in scopes.removeLast().movedTags {
            tagged.removeAll { $0.tag == tag }
            if scopes.contains(where: { $0.contains(id) }) { tagged.append((tag, id)) }
        }
        forgetRemovedTags()
        trimToLimit()
        return nil
    }

    // MARK: Clearing

    public mutating func removeAll() {
        isGroupOpen = false
        tagged = []
        scopes = [Scope(Version(id: makeID(), value: current, parent: nil))]
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
        var excess = scopes[top].stepCount - max(limit, 0)
        while excess > 0, let id = oldestLeafOffPath() {
            scopes[top].remove(id)
            excess -= 1
        }
        while excess > 0, scopes[top].current != scopes[top].floor {
            let next = scopes[top].path[1]
            scopes[top].versions.removeValue(forKey: scopes[top].floor)
            scopes[top].children[scopes[top].floor] = nil
            scopes[top].versions[next]!.parent = nil
            scopes[top].floor = next
            excess -= 1
        }
        if undoCount == 0 { isGroupOpen = false }
        forgetRemovedTags()
    }

    private func oldestLeafOffPath() -> Int? {
        let path = Set(scopes[top].path)
        return scopes[top].versions.keys.filter { !path.contains($0) && scopes[top].children[$0] == nil }.min()
    }
}

extension ReferenceHistory.Scope {
    /// Whether `ancestor` is `id` or lies on the way from `id` up to the floor.
    func isAncestor(_ ancestor: Int, of id: Int) -> Bool {
        var version: Int? = id
        while let current = version {
            if current == ancestor { return true }
            version = versions[current]!.parent
        }
        return false
    }
}

/// Why the model refuses an operation; it then changes nothing.
public enum ReferenceRefusal: String, Sendable, Equatable {
    case stepsOutOfRange, unknownTag, tagOutOfReach, noScopeToPop, unknownVersion, versionOutOfReach
}
