/// A history's ``HistoryStepStore`` as its scope tables read it: each step read once, checked
/// as it is read, and kept for the rest of the history's life.
///
/// The tables ask it for what they do not hold themselves (``HistoryStepTable`` and
/// ``HistoryChildren`` keep only what changed since the store was last written). A lookup
/// cannot throw, so a step that fails to read or to check is answered as absent and the
/// failure is kept: ``History/perform(_:on:policy:onConflict:)`` sees the failure count grow
/// and takes the whole command back.
///
/// The one place where a saved step is checked, for a store and for a whole archive alike (a
/// whole archive is loaded over a ``WholeArchiveStepStore``). Checked on every read: the step
/// is the one asked for, it matches its checksum (computed here, once per step, not when the
/// step was decoded), its depth was saved, its parent is older and its version
/// younger than the next version, it lies in a scope the outline has, its change count is
/// not negative, an author's move names an older step; and it hangs where its depth says,
/// one below its parent (a step of the same scope, read and checked alike but for its own
/// parent) or one below the scope's floor.
final class HistoryStepSource<Value, Annotation>: Sendable {

    typealias Step = RecordedStep<Value, Annotation>

    private struct Entry {
        var step: Step
        var scopeLevel: Int
        /// Whether the step's place below its parent was checked, not only its own facts.
        var placeChecked: Bool
    }

    private enum Cached {
        case absent
        case step(Entry)
        /// Read and refused: every later lookup fails again, so that no command mistakes
        /// the step for one that is not there.
        case failed(HistoryArchiveError)
    }

    private struct Cache {
        var steps: [HistoryVersion: Cached] = [:]
        var children: [HistoryVersion: [HistoryVersion]] = [:]
        var failures = 0
        var lastFailure: (version: HistoryVersion, error: HistoryArchiveError)?
        /// While a listing walks a whole scope (``HistoryStepSource/readingWithin(window:_:)``):
        /// how many of the versions read since it began stay cached. A listing of a long
        /// history would otherwise keep every step it printed.
        var window: Int?
        /// The versions cached since the window was set, oldest first, from `recentStart` on.
        var recent: [HistoryVersion] = []
        var recentStart = 0

        /// Caches what was read of `version`. In a window, the version read longest ago
        /// beyond the window is forgotten (read again if asked again); a failure never is,
        /// so that no later lookup mistakes a damaged step for one that is not there.
        mutating func keep(_ cached: Cached, for version: HistoryVersion) {
            let isNew = steps.updateValue(cached, forKey: version) == nil
            if isNew { noteRecent(version) }
        }

        /// Caches the children of `parent`, windowed as ``keep(_:for:)``.
        mutating func keepChildren(_ versions: [HistoryVersion], of parent: HistoryVersion) {
            children[parent] = versions
            noteRecent(parent)
        }

        private mutating func noteRecent(_ version: HistoryVersion) {
            guard let window else { return }
            recent.append(version)
            while recent.count - recentStart > window {
                let old = recent[recentStart]
                recentStart += 1
                if case .failed? = steps[old] {} else { steps[old] = nil }
                children[old] = nil
            }
            if recentStart > window {
                recent.removeFirst(recentStart)
                recentStart = 0
            }
        }
    }

    let store: any HistoryStepStore<Value>
    /// Each scope's floor and its depth, as saved.
    private let floors: [(version: HistoryVersion, depth: Int)]
    private let nextVersion: HistoryVersion
    private let relabel: @Sendable (RecordedStep<Value, SavedLabel>) -> Step
    // Sound to share: the cached steps are values that never change once read (their
    // reversions' nodes are immutable), and every access holds the lock.
    private let cache = Locked(unchecked: Cache())

    init(
        store: any HistoryStepStore<Value>,
        outline: HistoryArchive<Value>.Outline
    ) where Annotation: HistoryAnnotation {
        self.store = store
        floors = outline.scopes.map { ($0.floor, $0.floorDepth) }
        nextVersion = outline.nextVersion
        relabel = { $0.relabelled() }
    }

    /// Runs `body`, which walks a whole scope once, caching only the `window` versions it
    /// read last: memory stays flat however long the history, and a step read again (a
    /// parent checked below its child, a child read to list its parent's branches) is
    /// usually still there. Steps cached before stay cached; checks are unchanged.
    func readingWithin<R>(window: Int, _ body: () throws -> R) rethrows -> R {
        let outer = cache.withLockUnchecked { cache in
            let outer = cache.window
            cache.window = outer.map { min($0, window) } ?? window
            return outer
        }
        defer {
            cache.withLockUnchecked { cache in
                cache.window = outer
                if outer == nil {
                    cache.recent = []
                    cache.recentStart = 0
                }
            }
        }
        return try body()
    }

    /// How many reads have failed so far: a command compares it before and after.
    var failureCount: Int { cache.withLockUnchecked { $0.failures } }

    /// The last read that failed, and why.
    var lastFailure: (version: HistoryVersion, error: HistoryArchiveError)? {
        cache.withLockUnchecked { $0.lastFailure }
    }

    /// The saved step leading to `version` in the scope at `level`; `nil` if there is none,
    /// it belongs to another scope, or it failed (see ``failureCount``).
    func step(_ version: HistoryVersion, inScope level: Int) -> Step? {
        guard let entry = entry(version, placeChecked: true), entry.scopeLevel == level else { return nil }
        return entry.step
    }

    /// The saved versions that follow `parent` in the scope at `level`, oldest first.
    func children(of parent: HistoryVersion, inScope level: Int) -> [HistoryVersion] {
        // A child is newer than its parent and older than the next version: the newest version
        // has none saved (the step next to the present, after a record), so nothing is read.
        guard nextVersion.rawValue > 1, parent.rawValue < nextVersion.rawValue - 1 else { return [] }
        let known = cache.withLockUnchecked { $0.children[parent] }
        let versions: [HistoryVersion]
        if let known {
            versions = known
        } else {
            do {
                versions = try store.versions(after: parent).sorted()
            } catch {
                fail(parent, String(describing: error))
                return []
            }
            cache.withLockUnchecked { $0.keepChildren(versions, of: parent) }
        }
        let children = versions.filter { step($0, inScope: level)?.parent == parent }
        guard children.count < 2 else {
            // The outline lists every version with branches, and the history holds those
            // lists itself: one it asks the store about has at most one.
            fail(parent, "version \(parent) leads to \(children.count) steps in scope \(level), and the outline lists no branches for it")
            return []
        }
        return children
    }

    /// Whether the store may hold a step leading to `version`: only versions older than the
    /// outline's next version were saved.
    func mayHold(_ version: HistoryVersion) -> Bool {
        version < nextVersion
    }

    /// Keeps `step`, which the history held in memory and has just written to the store, as
    /// read and checked: the step next to the present is not read back by the next command.
    func remember(_ step: Step, inScope level: Int) {
        cache.withLockUnchecked { $0.keep(.step(Entry(step: step, scopeLevel: level, placeChecked: true)), for: step.version) }
    }

    /// The step leading to `version` as this source read and fully checked it, without
    /// reading the store.
    func checkedStep(_ version: HistoryVersion, inScope level: Int) -> Step? {
        guard case let .step(entry)? = cache.withLockUnchecked({ $0.steps[version] }),
              entry.placeChecked, entry.scopeLevel == level else { return nil }
        return entry.step
    }

    /// The versions the store lists for the scope at `level`, oldest first, unread.
    func savedVersions(inScope level: Int) -> [HistoryVersion] {
        do {
            return try store.versions(inScope: level).sorted()
        } catch {
            fail(floors.indices.contains(level) ? floors[level].version : HistoryVersion(0), String(describing: error))
            return []
        }
    }

    private func entry(_ version: HistoryVersion, placeChecked: Bool) -> Entry? {
        switch cache.withLockUnchecked({ $0.steps[version] }) {
        case .absent:
            return nil
        case let .failed(error):
            return fail(version, error)
        case let .step(entry):
            return !placeChecked || entry.placeChecked ? entry : checkPlace(of: entry)
        case nil:
            guard let entry = read(version) else {
                cache.withLockUnchecked { cache in
                    if cache.steps[version] == nil { cache.keep(.absent, for: version) }
                }
                return nil
            }
            cache.withLockUnchecked { $0.keep(.step(entry), for: version) }
            return placeChecked ? checkPlace(of: entry) : entry
        }
    }

    /// Reads the step of `version` and checks its own facts.
    private func read(_ version: HistoryVersion) -> Entry? {
        let saved: HistoryArchive<Value>.Step?
        do {
            saved = try store.step(leadingTo: version)
        } catch {
            return fail(version, String(describing: error))
        }
        guard let saved else { return nil }
        let level = saved.scopeLevel
        guard saved.version == version else {
            return fail(version, "the store gave step \(saved.version) when asked for step \(version)")
        }
        guard saved.matchesSavedChecksum else {
            return fail(version, "step \(version) in scope \(level) does not match its checksum: its content is damaged")
        }
        guard floors.indices.contains(level) else {
            return fail(version, "step \(version) is in scope \(level), which does not exist")
        }
        guard saved.depthIsSaved else {
            return fail(version, "step \(version) was saved without its depth, by an older version of this library: load the whole archive once and save it again")
        }
        guard saved.parent < version, version < nextVersion else {
            return fail(version, "step \(version) is not newer than its parent \(saved.parent) and older than \(nextVersion)")
        }
        guard saved.changeCount >= 0 else { return fail(version, "step \(version) has a negative change count") }
        if let target = saved.authorship?.move?.target, target >= version {
            return fail(version, "step \(version) reverts step \(target), which is not older")
        }
        return Entry(step: relabel(saved.recorded), scopeLevel: level, placeChecked: false)
    }

    /// Checks that `entry` hangs one below its parent, and marks it so.
    private func checkPlace(of entry: Entry) -> Entry? {
        let step = entry.step
        let level = entry.scopeLevel
        let parentDepth: Int
        if let parent = self.entry(step.parent, placeChecked: false), parent.scopeLevel == level {
            parentDepth = parent.step.depth
        } else if step.parent == floors[level].version {
            parentDepth = floors[level].depth
        } else if case .failed = cache.withLockUnchecked({ $0.steps[step.parent] }) {
            // The parent's own failure is the one to report; this step is read again later.
            return nil
        } else {
            return fail(step.version, "the parent \(step.parent) of step \(step.version) is not in scope \(level)")
        }
        guard step.depth == parentDepth + 1 else {
            return fail(step.version, "step \(step.version) says it is at depth \(step.depth), one below its parent at \(parentDepth)")
        }
        var checked = entry
        checked.placeChecked = true
        cache.withLockUnchecked { $0.keep(.step(checked), for: step.version) }
        return checked
    }

    /// Counts `error` as a failed read of `version`, as a command that finds a step damaged
    /// where it applies it reports it (see `History.refuse(_:_:in:level:doing:)`): the command is
    /// then taken back whole. The step stays readable; it fails again where it is applied.
    func report(_ version: HistoryVersion, _ error: HistoryArchiveError) {
        cache.withLockUnchecked { cache in
            cache.failures += 1
            cache.lastFailure = (version, error)
        }
    }

    @discardableResult
    private func fail(_ version: HistoryVersion, _ message: String) -> Entry? {
        fail(version, HistoryArchiveError(message))
    }

    @discardableResult
    private func fail(_ version: HistoryVersion, _ error: HistoryArchiveError) -> Entry? {
        cache.withLockUnchecked { cache in
            cache.steps[version] = .failed(error)
            cache.failures += 1
            cache.lastFailure = (version, error)
        }
        return nil
    }
}

extension HistoryStepSource: HistoryChildrenSource {}

/// What ``HistoryChildren`` asks when it does not hold a version's children itself.
protocol HistoryChildrenSource: AnyObject, Sendable {
    func children(of parent: HistoryVersion, inScope level: Int) -> [HistoryVersion]
}
