/// A ``HistoryStepStore`` in memory: for tests, and for a program that keeps a history's
/// steps in its own structure and saves them elsewhere in one piece. Steps are kept as
/// values, never encoded.
public final class InMemoryHistoryStepStore<Value: Sendable>: HistoryStepStore {

    private struct Contents: Sendable {
        var outline: HistoryArchive<Value>.Outline?
        var steps: [HistoryVersion: HistoryArchive<Value>.Step] = [:]
        var children: [HistoryVersion: Set<HistoryVersion>] = [:]
        var reads = 0


    mutating func insert(_ step: HistoryArchive<Value>.Step) {
        remove(step.version)
        steps[step.version] = step
        children[step.parent, default: []].insert(step.version)
    }

    mutating func remove(_ version: HistoryVersion) {
        guard let old = steps.removeValue(forKey: version) else { return }
        children[old.parent]?.remove(version)
        if children[old.parent]?.isEmpty == true { children[old.parent] = nil }
    }
    }

    private let contents: Locked<Contents>

    /// An empty store.
    public init() {
        contents = Locked(Contents())
    }

    /// A store holding `archive`.
    public init(_ archive: HistoryArchive<Value>) {
        var contents = Contents(outline: archive.outline)
        for step in archive.steps { contents.insert(step) }
        self.contents = Locked(contents)
    }

    /// How many steps were read with ``step(leadingTo:)`` since the store was made: what a
    /// test of lazy reading counts.
    public var stepReads: Int { contents.withLock { $0.reads } }

    /// Every saved step and the outline, as one archive; `nil` when nothing was saved.
    public var archive: HistoryArchive<Value>? {
        contents.withLock { contents in
            contents.outline.map { HistoryArchive(outline: $0, steps: contents.steps.values.sorted { $0.version < $1.version }) }
        }
    }

    /// The saved outline; `nil` before the first write.
    public func outline() -> HistoryArchive<Value>.Outline? {
        contents.withLock { $0.outline }
    }

    /// The saved step leading to `version`, counted in ``stepReads``.
    public func step(leadingTo version: HistoryVersion) -> HistoryArchive<Value>.Step? {
        contents.withLock { contents in
            contents.reads += 1
            return contents.steps[version]
        }
    }

    /// The versions of the saved steps that start from `parent`.
    public func versions(after parent: HistoryVersion) -> [HistoryVersion] {
        contents.withLock { Array($0.children[parent] ?? []) }
    }

    /// The versions of the saved steps of the scope at `level`.
    public func versions(inScope level: Int) -> [HistoryVersion] {
        contents.withLock { $0.steps.values.filter { $0.scopeLevel == level }.map(\.version) }
    }

    /// Saves `changes`: its removals, then its steps, then its outline.
    public func write(_ changes: HistoryArchive<Value>.Changes) {
        contents.withLock { contents in
            for version in changes.removedVersions { contents.remove(version) }
            for step in changes.savedSteps { contents.insert(step) }
            contents.outline = changes.outline
        }
    }
}
