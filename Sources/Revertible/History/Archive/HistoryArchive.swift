/// A history without its current version, in the pieces a store saves one at a time: each
/// step once, and a small outline (scopes, where each stands, tags) rewritten on every change.
///
/// Steps hold reversions (each change's location, old and new content), never the actions that
/// made them, so a loaded history undoes exactly what the original would have, whatever the
/// code that made the changes reads. Save it whole (it is `Codable` when the value is), or
/// write only ``changes(since:)`` after each change, as the `todo` example does with SQLite.
///
/// Not saved: an open group of changes (loading closes it) and the last error.
public struct HistoryArchive<Value> {

    /// The scopes, the versions they stand at, the tags, and the next version's identifier.
    public var outline: Outline
    /// Every step of every scope and branch, oldest first.
    public var steps: [Step]

    /// An archive made of `outline` and `steps`, checked when a history is loaded from it.
    public init(outline: Outline, steps: [Step]) {
        self.outline = outline
        self.steps = steps
    }

    /// One step: the version it leads to, the version it starts from, its label, time and
    /// change count, and its reversion.
    public struct Step {
        /// The step as the history keeps it, with its label alone for annotation. (Settable
        /// in this file only, for ``placed(atDepth:)``.)
        fileprivate(set) var recorded: RecordedStep<Value, SavedLabel>
        /// The scope the step belongs to, `0` for the outermost.
        public let scopeLevel: Int
        /// The checksum the step was decoded with. Kept, not compared, when the step is
        /// decoded: a history compares it with the step's content where it first reads the
        /// step (``matchesSavedChecksum``), so loading a long archive computes no checksum of
        /// a step that nothing reads.
        var savedChecksum = SavedChecksum.notSaved
        /// `false` when the step was decoded from an archive saved before steps kept their
        /// depth: loading the whole archive computes it, a store cannot.
        var depthIsSaved = true

        /// The version the step leads to; unique in the archive.
        public var version: HistoryVersion { recorded.version }
        /// The version the step starts from.
        public var parent: HistoryVersion { recorded.parent }
        /// The step's label, if the history labels steps.
        public var label: String? { recorded.annotation.label }
        /// When the step was recorded (see ``HistoryStep/time``).
        public var time: Duration { recorded.time }
        /// How many recorded changes the step holds.
        public var changeCount: Int { recorded.changeCount }
        /// From the step's version back to its parent.
        var reversion: Reversion<Value> { recorded.reversion }
        /// Who made the step, and what per-author moves did with it.
        var authorship: StepAuthorship? { recorded.authorship }
        /// Who made the step, if the history was told; `nil` in archives saved before steps
        /// had authors.
        public var author: HistoryAuthor? { authorship?.author }
        /// How many steps lie between the step's version and the outermost scope's first
        /// version (dropped steps included); `nil` in archives saved before it was kept.
        public var depth: Int? { depthIsSaved ? recorded.depth : nil }

        /// `recorded`, saved in the scope at `scopeLevel`.
        init(_ recorded: RecordedStep<Value, SavedLabel>, scopeLevel: Int) {
            self.recorded = recorded
            self.scopeLevel = scopeLevel
        }

        init(
            version: HistoryVersion,
            parent: HistoryVersion,
            scopeLevel: Int,
            label: String?,
            time: Duration,
            changeCount: Int,
            reversion: Reversion<Value>,
            authorship: StepAuthorship? = nil,
            depth: Int? = nil
        ) {
            self.init(RecordedStep(
                reversion: reversion, version: version, annotation: SavedLabel(savedLabel: label),
                time: time, changeCount: changeCount, parent: parent, depth: depth ?? 0, authorship: authorship
            ), scopeLevel: scopeLevel)
            depthIsSaved = depth != nil
        }

        /// The step at `depth`, saved: what loading a whole archive makes of a step saved
        /// before steps kept their depth, once the tree has placed it.
        func placed(atDepth depth: Int) -> Step {
            var step = self
            step.recorded.depth = depth
            step.depthIsSaved = true
            return step
        }

        /// Whether `other` is this very step, unchanged: the same place in the tree and the
        /// same reversion (by identity, so the check costs nothing).
        func isSame(as other: Step) -> Bool {
            version == other.version && parent == other.parent && scopeLevel == other.scopeLevel
                && label == other.label && time == other.time && changeCount == other.changeCount
                && reversion.isIdentical(to: other.reversion) && authorship === other.authorship
        }
    }

    /// What a decoded step's `sum` said (see ``Step/savedChecksum``).
    typealias SavedChecksum = ArchiveSavedChecksum

    /// The part of an archive that is not steps: small, rewritten whole on every change.
    public struct Outline {
        /// The identifier the next new version gets.
        let nextVersion: HistoryVersion
        /// The scopes, outermost first.
        let scopes: [Scope]
        /// Tags and the versions they name, in the order they were given.
        let tags: [(tag: HistoryTag, version: HistoryVersion)]
        /// How many steps the archive holds; `nil` in archives saved before it was kept.
        var stepCount: Int?
        /// Whether the history absorbed changes made without a step (another writer's), so
        /// that its steps may no longer apply exactly to one another: loading then checks
        /// the chain of steps selectively. `false` in archives saved before it was kept.
        var absorbedWrites = false
        /// The newest time any step or scope holds, so that a history opened over a store
        /// stamps its next step without reading every step; `nil` in archives saved before it
        /// was kept.
        var newestTime: Duration?

        /// One scope: where its tree is rooted, where it stands, and the order of its branches.
        struct Scope {
            var floor: HistoryVersion
            var floorDepth: Int
            var floorTime: Duration
            var current: HistoryVersion
            var start: Start?
            /// For each version with more than one branch, its branches, the one redo follows
            /// last. A version with one branch needs no entry: its steps' parents say it.
            var branchOrder: [(parent: HistoryVersion, children: [HistoryVersion])]
            /// The tags the scope moved and the versions they named before, which abandoning
            /// the scope gives back to them.
            var movedTags: [(tag: HistoryTag, version: HistoryVersion)] = []
            /// How many steps the scope holds; `nil` in archives saved before it was kept.
            var stepCount: Int?
        }

        /// The dropped beginning of an inner scope (see the history limit): the history's own
        /// ``ScopeStart``, with the label alone for annotation, as an archive saves it.
        typealias Start = ScopeStart<Value, SavedLabel>
    }

    /// What a store writes after a change: the steps that are new or changed, the versions
    /// whose steps are gone, and the outline.
    public struct Changes {
        /// The outline, always: it is small and changes with nearly every command.
        public var outline: Outline
        /// Steps to write, replacing any saved step of the same version.
        public var savedSteps: [Step]
        /// Versions whose saved steps to delete.
        public var removedVersions: [HistoryVersion]
    }

    /// The steps to write and delete to turn a saved `earlier` archive into this one.
    ///
    /// Steps are compared by version and by the identity of their reversions, so this costs
    /// one pass over the steps and encodes nothing.
    ///
    /// - Complexity: O(*n*), where *n* is the number of steps in both archives.
    public func changes(since earlier: HistoryArchive) -> Changes {
        var previous = Dictionary(earlier.steps.map { ($0.version, $0) }, uniquingKeysWith: { $1 })
        var saved: [Step] = []
        for step in steps {
            if let old = previous.removeValue(forKey: step.version), old.isSame(as: step) { continue }
            saved.append(step)
        }
        return Changes(outline: outline, savedSteps: saved, removedVersions: previous.keys.sorted())
    }
}

extension HistoryArchive: Sendable where Value: Sendable {}
extension HistoryArchive.Step: Sendable where Value: Sendable {}
extension HistoryArchive.Outline: Sendable where Value: Sendable {}
extension HistoryArchive.Outline.Scope: Sendable where Value: Sendable {}
extension HistoryArchive.Changes: Sendable where Value: Sendable {}

extension Reversion {

    /// Whether the two are the very same change, in the same direction.
    func isIdentical(to other: Reversion) -> Bool {
        node === other.node && isInverted == other.isInverted
    }
}

/// What a decoded step's `sum` said (see `HistoryArchive.Step.savedChecksum`). Not nested
/// in the generic archive: there its metadata was looked up at run time for every step read.
enum ArchiveSavedChecksum: Sendable {
    /// No sum was saved (archives saved before sums were written, or a step made in
    /// memory): there is nothing to compare.
    case notSaved
    /// The sum saved with the step.
    case saved(UInt64)
    /// A sum was saved but is not 16 hexadecimal digits: the step is damaged.
    case unreadable
}
