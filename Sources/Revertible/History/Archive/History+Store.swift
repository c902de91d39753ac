// A history over a store keeps in memory only its outline and what changed since the store
// was last written; the scope tables read every other step through one `HistoryStepSource`,
// checked as it is read. Opening reads the outline, the step undo would take and those redo
// could take; a command reads the steps it crosses. A whole archive is loaded the same way,
// over a `WholeArchiveStepStore` (see History+Archive.swift).

/// What a history over a store keeps besides its scopes.
struct HistoryStorage<Value, Annotation>: Sendable {
    let source: HistoryStepSource<Value, Annotation>
    /// The saved versions of scopes that ended, which saving deletes.
    var retired: Set<HistoryVersion> = []
    /// Whether the store is a whole archive the history was loaded from
    /// (``WholeArchiveStepStore``), which no one saves to: saving then writes every step, as
    /// for a history kept in memory, and no scope's versions need deleting.
    var holdsWholeArchive = false
    /// Whether a saved step that does not apply exactly where a command applies it is damage
    /// (or a present the history was not saved with), which the command refuses, rather than
    /// another writer's change, which the conflict policy settles. Only while the history
    /// absorbed no change (see `History.stepsMustApplyExactly`).
    var stepsMustApply = false
}

extension History {

    /// The history `store` holds, at `present`, reading only its outline and the steps next
    /// to the present; `nil` history steps when the store is empty.
    ///
    /// Checked here: the outline's own facts (as ``init(present:archive:checkingEveryStep:)``
    /// checks them), each scope standing at a version it holds and starting where the scope
    /// below stands, the branch lists naming steps of their parent, tags naming kept
    /// versions, and the steps next to the present applying to it (unless the history
    /// absorbed other writers' changes). Every other step is checked when it is read.
    ///
    /// - Complexity: O(*s* + *b* + *t*) reads for *s* scopes, *b* listed branches and *t*
    ///   tags, whatever the number of steps.
    package init(present: Value, store: any HistoryStepStore<Value>) throws(HistoryArchiveError) {
        let outline: HistoryArchive<Value>.Outline?
        do {
            outline = try store.outline()
        } catch {
            throw HistoryArchiveError(String(describing: error))
        }
        guard let outline else {
            self.init(present)
            attach(store, outline: self.outline())
            return
        }
        guard !outline.scopes.isEmpty else { throw HistoryArchiveError("the archive has no scope") }
        let storage = HistoryStorage(source: HistoryStepSource<Value, Annotation>(store: store, outline: outline))
        try self.init(present: present, outline: outline, scopes: Self.scopes(of: outline), storage: storage)
    }

    /// The history whose `outline` was read from `storage`'s store, and whose `scopes` are
    /// the outline's, checked (``scopes(of:)``): what opening a store and loading a whole
    /// archive share (see ``init(present:store:)`` for what is checked). `storage` says how
    /// saving and applying treat the steps; with ``HistoryStorage/stepsMustApply``, a
    /// present that spells a string in the other Unicode normalization form than the steps
    /// next to it is taken in their spelling.
    init(
        present: Value,
        outline: HistoryArchive<Value>.Outline,
        scopes: [HistoryScope<Value, Annotation>],
        storage: HistoryStorage<Value, Annotation>
    ) throws(HistoryArchiveError) {
        let source = storage.source
        var scopes = scopes
        for level in scopes.indices {
            let saved = outline.scopes[level]
            guard let count = saved.stepCount ?? (outline.scopes.count == 1 ? outline.stepCount : nil), count >= 0 else {
                throw HistoryArchiveError("scope \(level) does not say how many steps it holds: it was saved by an older version of this library; load the whole archive once and save it again")
            }
            scopes[level].attach(source, level: level, count: count)
            guard Set(saved.branchOrder.map(\.parent)).count == saved.branchOrder.count else {
                throw HistoryArchiveError("the branches of a version in scope \(level) are saved twice")
            }
            for (parent, children) in saved.branchOrder {
                // A whole archive's store checked its lists exactly, without reading a step.
                guard storage.holdsWholeArchive || Set(children).count == children.count
                        && children.allSatisfy({ scopes[level].steps[$0]?.parent == parent }) else {
                    throw Self.failure(source, or: "the branches of \(parent) in scope \(level) do not match its steps")
                }
                scopes[level].children[parent] = HistoryVersionList(children)
            }
            let scope = scopes[level]
            guard scope.current == scope.floor || scope.steps[scope.current] != nil else {
                throw Self.failure(source, or: "scope \(level) stands at \(scope.current), which it does not hold")
            }
            if level > 0, scope.startVersion != scopes[level - 1].current {
                throw HistoryArchiveError("scope \(level) does not start where scope \(level - 1) stands")
            }
        }
        self.init(present)
        self.scopes = scopes
        self.storage = storage
        nextVersion = outline.nextVersion
        tagged = outline.tags
        timeline.newest = outline.newestTime
        hasAbsorbedWrites = outline.absorbedWrites
        try checkTags()
        if outline.absorbedWrites {
            // Other writers' changes were absorbed: a step may conflict with them, which
            // undo and redo settle by their conflict policy, so no step is checked here.
        } else if storage.stepsMustApply {
            try fitPresentToStepsNextToIt()
        } else {
            try checkStepsNextToPresent()
        }
        if source.failureCount > 0 { throw Self.failure(source, or: "") }
    }

    /// The error of `source`'s last failed read, or one saying `message`.
    private static func failure(_ source: HistoryStepSource<Value, Annotation>, or message: String) -> HistoryArchiveError {
        source.lastFailure?.error ?? HistoryArchiveError(message)
    }

    /// Throws unless every tag is saved once and names a version some scope holds.
    func checkTags() throws(HistoryArchiveError) {
        guard Set(tagged.map(\.tag)).count == tagged.count else { throw HistoryArchiveError("a tag is saved twice") }
        for (tag, version) in tagged where !scopes.contains(where: { $0.contains(version) }) {
            throw HistoryArchiveError("tag \(tag) names \(version), which the archive does not hold")
        }
    }

    /// What saving this history to its store writes: the steps added or changed since the
    /// store was last written, the versions dropped since, and the outline. For a history
    /// kept whole in memory, every step.
    ///
    /// - Complexity: O(*k*) for *k* steps changed, plus the outline.
    package var unsavedChanges: HistoryArchive<Value>.Changes {
        if storage?.holdsWholeArchive == true {
            // Nothing of it was ever saved to a store: every step, as in memory.
            return HistoryArchive<Value>.Changes(outline: outline(newestTime: timeline.newest ?? newestTime), savedSteps: archive.steps, removedVersions: [])
        }
        var saved: [HistoryArchive<Value>.Step] = []
        var removed = storage?.retired ?? []
        for (level, scope) in scopes.enumerated() {
            for step in scope.steps.heldSteps {
                saved.append(.init(step.relabelled(), scopeLevel: level))
            }
            removed.formUnion(scope.steps.removed)
        }
        saved.sort { $0.version < $1.version }
        let kept = Set(saved.map(\.version))
        return HistoryArchive<Value>.Changes(
            outline: outline(newestTime: timeline.newest ?? newestTime),
            savedSteps: saved,
            removedVersions: removed.subtracting(kept).sorted()
        )
    }

    /// Writes ``unsavedChanges`` to `store` and reads from it from then on: what is written
    /// leaves memory. `store` may be the history's own or a new one (which then receives
    /// every step); on a failure nothing changes here.
    package mutating func save(to store: any HistoryStepStore<Value>) throws {
        var changes = unsavedChanges
        if let storage, storage.source.store !== store {
            // A new store gets every step, not only the changed ones.
            changes = HistoryArchive<Value>.Changes(
                outline: changes.outline, savedSteps: archive.steps, removedVersions: []
            )
        }
        try store.write(changes)
        attach(store, outline: changes.outline)
    }

    /// Reads from `store`, which holds exactly this history, from now on.
    package mutating func attach(_ store: any HistoryStepStore<Value>, outline: HistoryArchive<Value>.Outline) {
        let source = HistoryStepSource<Value, Annotation>(store: store, outline: outline)
        for level in scopes.indices {
            // The step next to each scope's present, as held in memory or as read and checked
            // before: what the next command reads first, not read back.
            let current = scopes[level].current
            if let step = scopes[level].steps.heldStep(current) ?? storage?.source.checkedStep(current, inScope: level) {
                source.remember(step, inScope: level)
            }
            let count = scopes[level].steps.count
            scopes[level].attach(source, level: level, count: count)
        }
        storage = HistoryStorage(source: source)
    }

    /// Removes the current scope, an inner one, keeping its saved versions for saving to
    /// delete.
    mutating func removeTopScope() -> HistoryScope<Value, Annotation> {
        retire(scopes[top], level: top)
        return scopes.removeLast()
    }

    /// Keeps the saved versions of `scope`, which is ending, for saving to delete.
    mutating func retire(_ scope: HistoryScope<Value, Annotation>, level: Int) {
        // A whole archive is never saved to: there is nothing to delete, and listing a scope's
        // versions would read the whole archive.
        guard let source = scope.steps.source, storage?.holdsWholeArchive != true else { return }
        // Every version the store has for it, dropped ones included: the scope's own record of
        // what it dropped ends with it.
        storage?.retired.formUnion(source.savedVersions(inScope: level))
    }

    /// Reads every step of every scope, each checked as it is read, and checks the history's
    /// structure: what opening leaves to the commands that cross each step, done at once,
    /// as `PRAGMA integrity_check` does. Applies no step, so a step that no longer fits a
    /// present another program edited is not reported (a move that reaches it is refused).
    ///
    /// - Returns: How many steps were checked.
    /// - Throws: The first step that cannot be read or fails its check, or a structural fact
    ///   that does not hold.
    package func checkEverySavedStep() throws(HistoryArchiveError) -> Int {
        let failures = readFailures
        var count = 0
        for scope in scopes { count += scope.steps.keys.count }
        if readFailures > failures, let failure = storage?.source.lastFailure {
            throw failure.error
        }
        if let violation = invariantViolations().first {
            throw HistoryArchiveError(violation)
        }
        return count
    }

    /// Whether the history reads its steps from a store.
    var isStored: Bool { storage != nil }

    /// How many reads from the store have failed so far; `0` for a history in memory.
    @usableFromInline
    var readFailures: Int { storage?.source.failureCount ?? 0 }

    /// The last failed read, as the error a command reports.
    @usableFromInline
    var lastReadFailure: HistoryError {
        let failure = storage?.source.lastFailure
        return .unreadableStep(failure?.version ?? HistoryVersion(0), failure?.error ?? HistoryArchiveError("a step cannot be read"))
    }

    /// The last failed read since the history was opened or saved, as the error a command
    /// reports; `nil` when none failed. A read outside a command (a count, a listing) answers
    /// as if the step were absent, so a caller that writes the history back asks this first.
    package var readFailure: HistoryError? {
        readFailures > 0 ? lastReadFailure : nil
    }
}

extension HistoryScope {

    /// Makes the scope read the steps it does not hold from `source`, dropping what it holds
    /// (the store has it all), with `count` steps in all.
    mutating func attach(_ source: HistoryStepSource<Value, Annotation>, level: Int, count: Int) {
        var table = HistoryStepTable<Value, Annotation>()
        table.source = source
        table.level = level
        table.sourcedCount = count
        steps = table
        // The lists of versions with several branches stay: the outline saves them, and the
        // store's order of a version's children is not redo's.
        var links = HistoryChildren()
        links.source = source
        links.level = level
        for (parent, list) in children where list.count > 1 {
            links[parent] = list
        }
        children = links
    }
}
