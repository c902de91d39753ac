import Foundation

// Loading a whole archive, and checking it.
//
// A whole archive is loaded the way a store is opened: its decoded steps become a
// `WholeArchiveStepStore`, and the history reads them through the same `HistoryStepSource` as
// a history over any store, so there is one set of checks where a step is read, for both.
// Loading checks what the history needs before it can read a step, in one pass over the
// steps' places (O(n), never their content): the tree, the outline, and the steps next to the
// present, which are read and applied. Each other step is checked where a command first
// reads it: its checksum (kept, not compared, when the step was decoded), its own facts and
// its place, by the source, once; and whether it applies, where the command applies it
// (`refuse(_:_:in:level:doing:)`: the history's steps were made from one another, so one
// that does not apply exactly is damage, not another writer's change). A command that meets
// such a step changes nothing (`History.perform` takes it back whole) and fails with
// `HistoryError.unreadableStep` naming the step. (With `checkingEveryStep: false`, for a
// present other programs also write, such a step is left to the conflict policy, and every
// step is read at load, since those callers save what they load.)
//
// Before, decoding summed each step by encoding it a second time, and loading applied every
// step up to three times: tens of microseconds a step (the `history-save` benchmark), paid
// for steps nothing reads. What loading no longer checks, `HistoryArchive.validate(present:)`
// still checks on demand, whole: the structure, every checksum, every step applied.

extension HistoryArchive where Value: Revertible {

    /// Checks everything about this archive at `present`, at once, as `PRAGMA
    /// integrity_check` or `git fsck` do: what loading it checks
    /// (``VersioningController/restoreHistory(from:)``, `UndoableState(present:archive:)`),
    /// and what a loaded history checks only where a command first reads or applies a step.
    ///
    /// The structure; every step's checksum (when saved) and own facts; and that every step
    /// of every scope and branch applies, from `present` down to the outermost scope's
    /// floor, each undone and redone (for an archive of a history that absorbed other
    /// writers' changes, whose steps may conflict with them, all but this last). A string
    /// that `present` spells in the other Unicode normalization form than the steps next to
    /// it does not count as a difference, as loading takes it in their spelling. When this
    /// passes, a history loaded from the archive at `present` refuses no command for damage.
    ///
    /// - Complexity: O(*s* + *c*), where *s* is the number of steps and *c* the size of their
    ///   changes: every step is summed and applied at most three times; never the size of
    ///   the value.
    /// - Throws: ``HistoryArchiveError`` naming the first problem, and the step at fault.
    public func validate(present: Value) throws(HistoryArchiveError) {
        let history = try History<Value, NoAnnotation>(present: present, archive: self)
        try history.checkEveryStep()
    }
}

extension History {

    /// This history without its current version, for saving. Encodes nothing.
    ///
    /// Over a store, or loaded from a whole archive, every step is read, and so checked: a
    /// step that fails is left out, and the archive's step count then refuses it where it
    /// is loaded, rather than the damage being saved under a fresh checksum.
    ///
    /// - Complexity: O(*n*) in the number of steps; over a store, every step is read.
    @usableFromInline
    package var archive: HistoryArchive<Value> {
        var steps: [HistoryArchive<Value>.Step] = []
        for (level, scope) in scopes.enumerated() {
            for step in scope.steps.values {
                steps.append(.init(step.relabelled(), scopeLevel: level))
            }
        }
        steps.sort { $0.version < $1.version }
        return HistoryArchive(outline: outline(), steps: steps)
    }

    /// The part of ``archive`` that is not steps: scopes, where each stands, tags, counts.
    ///
    /// - Parameter newestTime: The newest time the history holds, which a store saves so that
    ///   a history opened over it need not read every step to stamp its next one; a whole
    ///   archive leaves it out (loading computes it).
    /// - Complexity: O(*s* + *b* + *t*) for *s* scopes, *b* versions with several branches
    ///   and *t* tags; reads no step.
    func outline(newestTime: Duration? = nil) -> HistoryArchive<Value>.Outline {
        let outlines = scopes.map { scope in
            HistoryArchive<Value>.Outline.Scope(
                floor: scope.floor,
                floorDepth: scope.floorDepth,
                floorTime: scope.floorTime,
                current: scope.current,
                start: scope.start?.relabelled(),
                branchOrder: scope.children.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value)) },
                movedTags: scope.movedTags,
                stepCount: scope.steps.count
            )
        }
        return HistoryArchive<Value>.Outline(
            nextVersion: nextVersion, scopes: outlines, tags: tagged,
            stepCount: outlines.reduce(0) { $0 + ($1.stepCount ?? 0) }, absorbedWrites: hasAbsorbedWrites,
            newestTime: newestTime
        )
    }

    /// The history `archive` describes, at `present`, loaded as a store is opened: over a
    /// ``WholeArchiveStepStore`` of its steps, read through the same ``HistoryStepSource``.
    ///
    /// Checked here, in one pass over the steps' places and none over their content:
    /// 1. The outline's own facts (``scopes(of:)``) and the tree (``WholeArchiveStepStore``):
    ///    versions are unique and each is older than the `next` counter; every step's parent
    ///    is older than the step and lies in the step's scope, so the parents form one tree
    ///    per scope, rooted at its floor, with no cycle; saved depths agree with the tree;
    ///    the saved step count (when saved) agrees with the steps; each branch list names
    ///    exactly the branches its version has.
    /// 2. What opening a store checks (``init(present:store:)``): each scope stands at a
    ///    version it holds and starts where the scope below stands; tags name kept versions;
    ///    the steps next to the present (the one undo takes, those redo can take) are read,
    ///    so checked, and apply to it. With `checkingEveryStep`, a present `==` to the saved
    ///    one that spells a string those steps wrote in the other Unicode normalization form
    ///    is taken in their spelling. Not for an archive of a history that absorbed other
    ///    writers' changes (``absorb(_:)``), whose steps may conflict with those changes.
    ///
    /// Every other step is checked where a command first reads it (its checksum, its place),
    /// and whether it applies where the command applies it; a command that meets a step
    /// that fails changes nothing and fails with ``HistoryError/unreadableStep(_:_:)``.
    /// ``HistoryArchive/validate(present:)`` checks everything at once.
    ///
    /// - Complexity: O(*n*) for *n* steps, in their places alone: no step's content is
    ///   encoded, summed or applied but the few next to the present (with
    ///   `checkingEveryStep: false`, every step is summed).
    /// - Parameter checkingEveryStep: Whether a step that does not apply exactly where a
    ///   command applies it is damage, refused as above (`true`), or, for a store whose
    ///   present other programs may also write (the `todo` example's database), someone
    ///   else's change there, which the command's conflict policy settles (`false`, which
    ///   also reads, so checks, every step here).
    /// - Throws: ``HistoryArchiveError`` naming the first problem found, and the step (its
    ///   version, scope, and the key path where it does not apply) when one is at fault.
    package init(present: Value, archive: HistoryArchive<Value>, checkingEveryStep: Bool = true) throws(HistoryArchiveError) {
        // The outline's own facts first: the store computes depths from its floor depths.
        let scopes = try Self.scopes(of: archive.outline)
        let store = try WholeArchiveStepStore(archive)
        var storage = HistoryStorage(source: HistoryStepSource<Value, Annotation>(store: store, outline: store.checkedOutline))
        storage.holdsWholeArchive = true
        storage.stepsMustApply = checkingEveryStep
        try self.init(present: present, outline: store.checkedOutline, scopes: scopes, storage: storage)
        if !checkingEveryStep {
            // Its callers save what they load whole (the `todo` example's migration, its
            // server's rows), and saving leaves out a step that fails: so every step is read,
            // and checked, now, as decoding used to, and damage is refused before it is lost.
            try checkEveryStepReads()
        }
    }

    /// The scopes `outline` describes, without their steps, once each scope's own facts are
    /// checked: versions older than the next one, moved tags, starts and floor depths.
    static func scopes(of outline: HistoryArchive<Value>.Outline) throws(HistoryArchiveError) -> [HistoryScope<Value, Annotation>] {
        let scopes = outline.scopes.map { saved -> HistoryScope<Value, Annotation> in
            var scope = HistoryScope<Value, Annotation>(floor: saved.floor, time: saved.floorTime)
            scope.floorDepth = saved.floorDepth
            scope.current = saved.current
            scope.start = saved.start?.relabelled()
            scope.movedTags = saved.movedTags
            return scope
        }
        for (level, scope) in scopes.enumerated() {
            for version in [scope.floor, scope.start?.version].compactMap({ $0 }) where version >= outline.nextVersion {
                throw HistoryArchiveError("version \(version) of scope \(level) is not older than the next version, \(outline.nextVersion)")
            }
            // A moved tag's earlier version may be gone (the limit): it is then not given back.
            for (tag, version) in scope.movedTags where version >= outline.nextVersion {
                throw HistoryArchiveError("tag \(tag), moved in scope \(level), names \(version), which is not older than the next version, \(outline.nextVersion)")
            }
            guard level > 0 || scope.movedTags.isEmpty else { throw HistoryArchiveError("the outermost scope cannot have moved tags") }
            guard level > 0 || scope.start == nil else { throw HistoryArchiveError("the outermost scope cannot have a start") }
            guard Set(scope.movedTags.map(\.tag)).count == scope.movedTags.count else {
                throw HistoryArchiveError("a tag moved in scope \(level) is saved twice")
            }
            // Bounded, so depths computed from it cannot overflow.
            guard (0..<(1 << 48)).contains(scope.floorDepth) else { throw HistoryArchiveError("scope \(level) has an impossible depth, \(scope.floorDepth)") }
            // An inner scope's floor moves only when the limit folds its oldest steps into its
            // start, and then its floor depth counts them.
            if level > 0, (scope.start == nil) != (scope.floorDepth == 0) {
                throw HistoryArchiveError("scope \(level) has a floor depth of \(scope.floorDepth) \(scope.start == nil ? "but no start" : "and a start"): the two must agree")
            }
            if let start = scope.start {
                guard start.version < scope.floor else {
                    throw HistoryArchiveError("the start \(start.version) of scope \(level) is not older than its floor \(scope.floor)")
                }
                guard start.changeCount >= 0 else { throw HistoryArchiveError("the start of scope \(level) has a negative change count") }
            }
        }
        return scopes
    }

    /// Throws unless the steps next to the present apply to it: the one undo takes, and each
    /// that redo can take.
    package func checkStepsNextToPresent() throws(HistoryArchiveError) {
        do throws(StepFailure) {
            try Self.checkStepsNext(to: current, in: scopes[top])
        } catch {
            throw error.error
        }
    }

    /// ``checkStepsNextToPresent()``, where equality is the contract, not bytes: a present
    /// `==` to the saved one may spell a string in the other Unicode normalization form,
    /// which the steps, checking exact bytes, refuse. Where a step refuses a string, the
    /// present's string there is tried in its composed (NFC) and decomposed (NFD) forms,
    /// which are equal to it; the form the steps accept becomes the history's copy of the
    /// present. At most a few are tried (``respellingLimit``). Only strings reached through
    /// stored properties are tried: one inside a collection is not re-spelled, and the
    /// present is refused.
    ///
    /// Only the steps next to the present are asked: a string that only older steps wrote
    /// is found where a command applies them, and refused there (see ``refuse(_:_:in:level:doing:)``).
    mutating func fitPresentToStepsNextToIt() throws(HistoryArchiveError) {
        var present = current
        var firstFailure: StepFailure?
        var tried: [(AnyKeyPath, Int)] = []
        for _ in 0...Self.respellingLimit {
            let failure: StepFailure
            do throws(StepFailure) {
                try Self.checkStepsNext(to: present, in: scopes[top])
                reference = present
                return
            } catch {
                failure = error
            }
            if firstFailure == nil { firstFailure = failure }
            guard let keyPath = failure.keyPath else { break }
            // Composed first, then decomposed, then give up on this location.
            var attempt = tried.last.map { $0.0 == keyPath ? $0.1 + 1 : 0 } ?? 0
            var respelled: Value?
            while attempt < 2, respelled == nil {
                respelled = Self.respell(present, at: keyPath, decomposed: attempt == 1)
                if respelled == nil { attempt += 1 }
            }
            guard let respelled else { break }
            tried.append((keyPath, attempt))
            present = respelled
        }
        throw firstFailure!.error
    }

    /// Throws unless each step next to `present` in `scope` applies to it: the one undo takes,
    /// and each that redo can take.
    private static func checkStepsNext(to present: Value, in scope: HistoryScope<Value, Annotation>) throws(StepFailure) {
        var neighbours: [(reversion: Reversion<Value>, version: HistoryVersion)] = []
        if let step = scope.steps[scope.current] {
            neighbours.append((step.reversion, step.version))
        }
        for child in scope.children[scope.current] ?? [] {
            if let step = scope.steps[child] {
                neighbours.append((step.reversion.inverted, step.version))
            }
        }
        for (reversion, version) in neighbours where !reversion.canRevert(present) {
            let location = reversion.node.refusedLocation(in: present, reversion.direction)
            let place = location.map { " at \($0.text(in: Value.self))" } ?? ""
            throw StepFailure(
                error: HistoryArchiveError("the present is not the version the history stands at: the step to \(version) does not apply\(place)"),
                keyPath: location?.keyPath
            )
        }
    }

    /// Throws unless every step reads and checks (``HistoryStepSource``), and, unless the
    /// history absorbed other writers' changes, every step of every scope and branch applies
    /// where the tree puts it, starting from the present: in each scope, innermost first,
    /// the steps from where the scope stands back to its floor are undone, then every branch
    /// is walked from the floor, each step redone and undone, and the scope's saved start
    /// taken back, which lands where the scope below stands. What
    /// ``HistoryArchive/validate(present:)`` adds to loading.
    func checkEveryStep() throws(HistoryArchiveError) {
        try checkEveryStepReads()
        guard !hasAbsorbedWrites else { return }
        do throws(StepFailure) {
            try Self.checkEveryStep(of: scopes, from: current)
        } catch {
            throw error.error
        }
    }

    /// Throws unless every saved step reads, and so passes ``HistoryStepSource``'s checks
    /// (its checksum, its own facts, its place), and no version has branches the outline
    /// does not list, naming the first problem.
    func checkEveryStepReads() throws(HistoryArchiveError) {
        if let source = storage?.source {
            for level in scopes.indices {
                let saved = source.savedVersions(inScope: level)
                for version in saved where source.step(version, inScope: level) == nil {
                    // Every saved version of the scope is one of its steps, or a failure.
                    throw source.lastFailure?.error ?? HistoryArchiveError("step \(version) is not in scope \(level)")
                }
                // The branches of every version, as the history reads them: a version the
                // outline lists no branches for must have at most one.
                for version in saved + [scopes[level].floor] {
                    _ = scopes[level].children[version]
                }
                if source.failureCount > 0 { throw source.lastFailure!.error }
            }
        }
    }

    /// How many re-spelled locations loading tries before it refuses the present.
    static var respellingLimit: Int { 16 }

    /// `value` with the string at `keyPath` in its composed or decomposed form; `nil` if no
    /// string is there, or it is already spelled so.
    private static func respell(_ value: Value, at keyPath: AnyKeyPath, decomposed: Bool) -> Value? {
        func form(_ string: String) -> String? {
            let respelled = decomposed ? string.decomposedStringWithCanonicalMapping : string.precomposedStringWithCanonicalMapping
            return respelled.utf8.elementsEqual(string.utf8) ? nil : respelled
        }
        // Only a chain of stored properties is sure to exist: a subscript's element (an id
        // the partial value lacks, say) may not, and reading it could trap.
        let name = String(describing: keyPath)
        guard name.hasPrefix("\\"), !name.contains("["), !name.contains("<") else { return nil }
        var value = value
        if let path = keyPath as? WritableKeyPath<Value, String> {
            guard let string = form(value[keyPath: path]) else { return nil }
            value[keyPath: path] = string
        } else if let path = keyPath as? WritableKeyPath<Value, String?> {
            guard let string = value[keyPath: path].flatMap(form) else { return nil }
            value[keyPath: path] = string
        } else {
            return nil
        }
        return value
    }

    /// A step that did not apply while loading, and where, if that is known.
    ///
    /// `@unchecked`: a key path is immutable, though `AnyKeyPath` is not marked `Sendable`.
    private struct StepFailure: Error, @unchecked Sendable {
        let error: HistoryArchiveError
        let keyPath: AnyKeyPath?
    }

    /// Applies every step of `scopes` on one copy of `present` that each step changes in place.
    private static func checkEveryStep(of scopes: [HistoryScope<Value, Annotation>], from present: Value) throws(StepFailure) {
        var value = present
        var isPresent = true
        for level in scopes.indices.reversed() {
            let scope = scopes[level]
            var version = scope.current
            while let step = scope.steps[version] {
                try apply(step.reversion, to: &value, step: step.version, level: level, doing: isPresent ? "undoing it from the present" : "undoing it")
                isPresent = false
                version = step.parent
            }
            try checkBranches(of: scope, level: level, from: &value)
            if let start = scope.start, let reversion = start.reversion {
                try apply(reversion, to: &value, step: start.version, level: level, doing: "taking the scope back to its start")
            }
            isPresent = false
        }
    }

    /// Walks every branch of `scope` from its floor, where `value` stands: each step redone,
    /// its own branches walked, then undone, so `value` ends at the floor again. A stack, not
    /// recursion: a history can be a hundred thousand steps deep.
    private static func checkBranches(of scope: HistoryScope<Value, Annotation>, level: Int, from value: inout Value) throws(StepFailure) {
        var stack: [(version: HistoryVersion, next: Int)] = [(scope.floor, 0)]
        while let (version, next) = stack.last {
            if let children = scope.children[version], next < children.count {
                stack[stack.count - 1].next += 1
                let child = children[next]
                guard let step = scope.steps[child] else { continue }
                try apply(step.reversion.inverted, to: &value, step: child, level: level, doing: "redoing it")
                stack.append((child, 0))
            } else {
                stack.removeLast()
                if let step = scope.steps[version] {
                    try apply(step.reversion, to: &value, step: version, level: level, doing: "undoing it")
                }
            }
        }
    }

    private static func apply(_ reversion: Reversion<Value>, to value: inout Value, step: HistoryVersion, level: Int, doing action: String) throws(StepFailure) {
        // Checked once: `revert` would check again inside, and name no step.
        if reversion.canRevert(value), reversion.revertUnchecked(&value) { return }
        let (error, keyPath) = refusal(of: reversion, in: value, step: step, level: level, doing: action)
        throw StepFailure(error: error, keyPath: keyPath)
    }

    /// Why `reversion`, of the step to `step` (or the start) in the scope at `level`, does
    /// not apply to `value` while `action` ("undoing it"), and the key path where, if known.
    private static func refusal(
        of reversion: Reversion<Value>, in value: Value, step: HistoryVersion, level: Int, doing action: String
    ) -> (error: HistoryArchiveError, keyPath: AnyKeyPath?) {
        let location = reversion.node.refusedLocation(in: value, reversion.direction)
        let place = location.map { " at \($0.text(in: Value.self))" } ?? ""
        return (
            HistoryArchiveError("the step to \(step) in scope \(level) does not apply\(place) (\(action)): the archive is damaged, or was saved with another present"),
            location?.keyPath
        )
    }
}

extension History {

    /// Whether a saved step that does not apply exactly, where a command applies it, is
    /// damage to refuse (``refuse(_:_:in:level:doing:)``) rather than another writer's change for
    /// the conflict policy: for a history loaded from a whole archive checking every step
    /// (``HistoryStorage/stepsMustApply``), as long as it absorbed no change. Such a
    /// history's steps were all made from one another, so each applies exactly where the
    /// tree puts it, or the archive is damaged (or was loaded at another present).
    var stepsMustApplyExactly: Bool {
        !hasAbsorbedWrites && storage?.stepsMustApply == true
    }

    /// Refuses the step to `version` (or the start of the scope at `level`, by its version),
    /// whose `reversion` does not apply to `value` while `action`: the failure is counted as
    /// a failed read of the history's source, so ``perform(_:on:policy:onConflict:)`` takes
    /// the whole command back and fails with ``HistoryError/unreadableStep(_:_:)`` naming
    /// the step, as it does for a step that fails its checksum. Where a step is applied
    /// this way, loading no longer applies it first (see the top of this file).
    ///
    /// - Returns: The error, for a caller that throws it at once.
    @discardableResult
    func refuse(_ version: HistoryVersion, _ reversion: Reversion<Value>, in value: Value, level: Int, doing action: String) -> HistoryError {
        let error = Self.refusal(of: reversion, in: value, step: version, level: level, doing: action).error
        storage?.source.report(version, error)
        return .unreadableStep(version, error)
    }
}
