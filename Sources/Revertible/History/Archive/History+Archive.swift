import Foundation

extension HistoryArchive where Value: Revertible {

    /// Checks that a history loads from this archive at `present`, exactly as
    /// ``VersioningController/restoreHistory(from:)`` and `UndoableState(present:archive:)`
    /// check it, without keeping the history: for a store that wants to know before it opens.
    ///
    /// The structure, each step's checksum (when saved), and that every step of every scope
    /// and branch applies from `present`; a string that `present` spells in the other Unicode
    /// normalization form than the steps does not count as a difference.
    ///
    /// - Complexity: O(*s* + *c*), where *s* is the number of steps and *c* the size of their
    ///   changes; never the size of the value.
    /// - Throws: ``HistoryArchiveError`` naming the first problem, and the step at fault.
    public func validate(present: Value) throws(HistoryArchiveError) {
        _ = try History<Value, NoAnnotation>(present: present, archive: self)
    }
}

extension History {

    /// This history without its current version, for saving. Encodes nothing.
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

    /// The history `archive` describes, at `present`.
    ///
    /// Nothing is accepted unchecked, so a loaded history is always usable: every version
    /// reachable, every scope able to end, undo and redo to both ends.
    ///
    /// 1. Structure, before any value is touched: versions are unique and each is older than
    ///    the `next` counter; every step's parent is older than the step and lies in the step's
    ///    scope, so the parents form one tree per scope, rooted at its floor, with no cycle;
    ///    each scope stands at a version it holds and starts where the scope below stands; its
    ///    branch lists name exactly the branches its steps make; an inner scope has a saved
    ///    start exactly when the limit moved its floor (its floor depth is not 0); tags name
    ///    kept versions; the saved step count (when saved) agrees with the steps; and no step
    ///    failed its checksum when it was decoded.
    /// 2. Every step applies where the tree puts it, starting from `present`: in each scope,
    ///    innermost first, the steps from where the scope stands back to its floor are undone,
    ///    then every branch is walked from the floor, each step redone and undone, and the
    ///    scope's saved start taken back, which lands where the scope below stands. A step that
    ///    does not apply is damage, or a present the archive was not saved with.
    ///    Not for an archive of a history that absorbed other writers' changes (``absorb(_:)``,
    ///    which the archive records): its steps may conflict with those changes, as undo and
    ///    redo allow, so only 1. is checked.
    ///
    /// - Complexity: O(*s* + *c*), where *s* is the number of steps and *c* the size of their
    ///   changes: each step is applied at most three times, and the value is never copied or
    ///   compared whole, so the cost does not grow with the size of the value.
    /// - Parameter checkingEveryStep: `false` checks, in place of 2., only the steps next to
    ///   the present (the one undo takes and those redo can take). For a store whose present
    ///   other programs may also write (the `todo` example's database), an older step that no
    ///   longer fits is someone else's change there, not damage: undo refuses it when it gets
    ///   there. Damage to the archive itself is still found by 1. and the checksums.
    /// - Throws: ``HistoryArchiveError`` naming the first problem found, and the step (its
    ///   version, scope, and the key path where it does not apply) when one is at fault.
    package init(present: Value, archive: HistoryArchive<Value>, checkingEveryStep: Bool = true) throws(HistoryArchiveError) {
        let outline = archive.outline
        guard !outline.scopes.isEmpty else { throw HistoryArchiveError("the archive has no scope") }
        if let count = outline.stepCount, count != archive.steps.count {
            throw HistoryArchiveError("the archive says it holds \(count) steps, and holds \(archive.steps.count)")
        }
        var scopes = try Self.scopes(of: outline)
        var seen = Set<HistoryVersion>()
        // Oldest first, so a step's parent is in place before it.
        for step in archive.steps.sorted(by: { $0.version < $1.version }) {
            guard scopes.indices.contains(step.scopeLevel) else {
                throw HistoryArchiveError("step \(step.version) is in scope \(step.scopeLevel), which does not exist")
            }
            guard step.checksumMatches else {
                throw HistoryArchiveError("step \(step.version) in scope \(step.scopeLevel) does not match its checksum: its content is damaged")
            }
            // Parents strictly older: the parents form a tree, never a cycle.
            guard step.parent < step.version, step.version < outline.nextVersion else {
                throw HistoryArchiveError("step \(step.version) is not newer than its parent \(step.parent) and older than \(outline.nextVersion)")
            }
            guard seen.insert(step.version).inserted else { throw HistoryArchiveError("step \(step.version) is saved twice") }
            guard step.changeCount >= 0 else { throw HistoryArchiveError("step \(step.version) has a negative change count") }
            if let target = step.authorship?.move?.target, target >= step.version {
                throw HistoryArchiveError("step \(step.version) reverts step \(target), which is not older")
            }
            // In place: a copy of the scope would copy its tables on every step.
            let level = step.scopeLevel
            guard step.parent == scopes[level].floor || scopes[level].steps[step.parent] != nil else {
                throw HistoryArchiveError("the parent \(step.parent) of step \(step.version) is not in scope \(level)")
            }
            scopes[level].insert(step.recorded.relabelled(), after: step.parent)
            if step.depthIsSaved, scopes[level].steps.depth(of: step.version) != step.recorded.depth {
                throw HistoryArchiveError("step \(step.version) says it is at depth \(step.recorded.depth), and its place in scope \(level) puts it at \(scopes[level].steps.depth(of: step.version) ?? 0)")
            }
        }
        for (level, saved) in outline.scopes.enumerated() {
            guard Set(saved.branchOrder.map(\.parent)).count == saved.branchOrder.count else {
                throw HistoryArchiveError("the branches of a version in scope \(level) are saved twice")
            }
            for (parent, children) in saved.branchOrder {
                guard let kept = scopes[level].children[parent], Set(kept) == Set(children), kept.count == children.count else {
                    throw HistoryArchiveError("the branches of \(parent) in scope \(level) do not match its steps")
                }
                scopes[level].children[parent] = HistoryVersionList(children)
            }
            let scope = scopes[level]
            guard scope.current == scope.floor || scope.steps[scope.current] != nil else {
                throw HistoryArchiveError("scope \(level) stands at \(scope.current), which it does not hold")
            }
            if level > 0 {
                guard scope.startVersion == scopes[level - 1].current else {
                    throw HistoryArchiveError("scope \(level) does not start where scope \(level - 1) stands")
                }
            }
        }
        self.init(present)
        self.scopes = scopes
        nextVersion = outline.nextVersion
        tagged = outline.tags
        guard Set(tagged.map(\.tag)).count == tagged.count else { throw HistoryArchiveError("a tag is saved twice") }
        for (tag, version) in tagged where !scopes.contains(where: { $0.contains(version) }) {
            throw HistoryArchiveError("tag \(tag) names \(version), which the archive does not hold")
        }
        hasAbsorbedWrites = outline.absorbedWrites
        if outline.absorbedWrites {
            // Other writers' changes were absorbed: a step may conflict with them, which
            // undo and redo handle by their conflict policy, so the chain of steps is not
            // exact and is not checked. Damage still shows in the structure checked above
            // and in each step's checksum.
        } else if checkingEveryStep {
            try checkEveryStep()
        } else {
            try checkStepsNextToPresent()
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
        let scope = scopes[top]
        var neighbours: [(reversion: Reversion<Value>, version: HistoryVersion)] = []
        if let step = scope.steps[scope.current] {
            neighbours.append((step.reversion, step.version))
        }
        for child in scope.children[scope.current] ?? [] {
            if let step = scope.steps[child] {
                neighbours.append((step.reversion.inverted, step.version))
            }
        }
        for (reversion, version) in neighbours where !reversion.canRevert(current) {
            let place = reversion.refusedKeyPath(in: current).map { " at \($0)" } ?? ""
            throw HistoryArchiveError("the present is not the version the history stands at: the step to \(version) does not apply\(place)")
        }
    }

    /// Applies every step where the tree puts it, from the present down to the outermost
    /// scope's floor (see ``init(present:archive:)``).
    ///
    /// Equality is the contract, not bytes: a present `==` to the saved one may spell a string
    /// in the other Unicode normalization form, which the steps, checking exact bytes, refuse.
    /// Where a step refuses a string, the present's string there is tried in its composed
    /// (NFC) and decomposed (NFD) forms, which are equal to it; the form the steps accept
    /// becomes the history's copy of the present. Each try is one more walk, so at most a few
    /// are made (``respellingLimit``). Only strings reached through stored properties are
    /// tried: one inside a collection is not re-spelled, and the present is refused.
    private mutating func checkEveryStep() throws(HistoryArchiveError) {
        var present = current
        var firstFailure: StepFailure?
        var tried: [(AnyKeyPath, Int)] = []
        for _ in 0...Self.respellingLimit {
            let failure: StepFailure
            do throws(StepFailure) {
                try Self.checkEveryStep(of: scopes, from: present)
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
        let location = reversion.node.refusedLocation(in: value, reversion.direction)
        let place = location.map { " at \($0.text(in: Value.self))" } ?? ""
        throw StepFailure(
            error: HistoryArchiveError("the step to \(step) in scope \(level) does not apply\(place) (\(action)): the archive is damaged, or was saved with another present"),
            keyPath: location?.keyPath
        )
    }
}
