// The path of one change, from the value handed in to a stored step (see History.swift for
// the whole walk): `record` stamps and groups it, `recordedDifference` or
// `versionedDifference` (Comparing/) finds the change, `advanceReference` applies it to the
// history's copy, `appendStep` stores it, and `trim` (History+Limit) keeps the limit.

extension History {

    /// How a value is compared with the current version before it is recorded: the reversion
    /// back to the current version (`nil` when nothing versioned differs) and the ignored
    /// places (see ``IgnoredProperty``) whose content the history's copy takes from the value.
    ///
    /// ``recordedDifference(_:from:)``, taken when the caller passes none, serves any
    /// `Revertible` value. A caller that knows its value is `Versionable` (the undoable
    /// reducer) passes ``versionedDifference(_:from:)``: the type's own comparison, specialized
    /// where the caller is compiled, with no per-type lookup and no generic comparison for a
    /// type that ignores places.
    @usableFromInline
    package typealias Comparison = (_ value: Value, _ previous: Value) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>])

    /// Records `value` as the new current version.
    ///
    /// When it differs from the current version, one step holding the reversion between them
    /// is pushed on the current scope (clearing its redo steps), or, when `grouping` joins
    /// the open group under `policy`, folded into the group's step. When it is equal, nothing
    /// is recorded. Either way the history keeps its own copy of the current version, moved
    /// only by its steps (see ``advanceReference(to:by:)``), never `value` itself.
    ///
    /// - Parameters:
    ///   - changeCount: How many changes `value` holds (a transaction's actions), as
    ///     ``HistoryStep/changeCount`` reports them.
    ///   - author: Who made the change; `nil` for `policy`'s author. A change never joins a
    ///     group of another author's.
    ///   - comparison: How `value` is compared with the current version (see ``Comparison``).
    /// - Returns: Whether the history changed.
    @discardableResult
    @inlinable
    package mutating func record(
        _ value: Value,
        annotation: Annotation,
        changeCount: Int = 1,
        grouping: Grouping = .alone,
        author: HistoryAuthor? = nil,
        policy: HistoryPolicy,
        comparing comparison: Comparison? = nil
    ) -> Bool {
        // Small, so it inlines where the caller is compiled: `comparison`, known there, is
        // then a direct call to the comparison specialized for the value's type.
        record(
            value, difference: difference(of: value, by: comparison), annotation: annotation,
            changeCount: changeCount, grouping: grouping, author: author, policy: policy
        )
    }

    /// ``record(_:annotation:changeCount:grouping:author:policy:comparing:)``, once
    /// `difference`, the one comparison of `value` with the current version, has found the
    /// change and the ignored places, which the history's copy takes from `value` once it
    /// holds the change.
    ///
    /// - Parameter journaled: Whether the history's copy already holds `value` (a reducer's
    ///   run recorded as its trees wrote it: `record(_:lentTrees:...)`), so no group may form
    ///   and the copy is not advanced.
    @inlinable
    mutating func record(
        _ value: Value,
        difference: (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]),
        journaled: Bool = false,
        annotation: Annotation,
        changeCount: Int,
        grouping: Grouping,
        author: HistoryAuthor?,
        policy: HistoryPolicy
    ) -> Bool {
        defer { checkInvariantsInDebugBuilds() }
        let author = author ?? policy.author
        let (change, ignored) = difference
        defer { adoptIgnoredProperties(ignored, of: value) }
        let time = stamp(grouping.time ?? policy.now(), policy: policy)
        let mark = grouping.mark(at: time)
        assert(!journaled || !(mark.map { opensGroup($0, policy: policy) } ?? false), "a journaled step in a group")
        if let mark, joinsGroup(mark, policy: policy), scopes[top].currentStep?.author == author {
            extendGroup(with: value, by: change, annotation: annotation, mark: mark)
            return true
        }
        endGroup()
        guard let reversion = change else { return false }
        // Keep the version before the change only for a group, which diffs against it: held
        // while the reference advances, it would force a copy of the reference's storage.
        let groupBase = mark.flatMap { opensGroup($0, policy: policy) ? reference : nil }
        if !journaled {
            advanceReference(to: value, by: reversion)
        }
        appendStep(reversion, annotation: annotation, time: time, changeCount: changeCount, authorship: author.map { StepAuthorship(author: $0) })
        if let groupBase, let mark {
            group = OpenGroup(base: groupBase, scope: top, mark: mark)
        }
        trim(to: policy.limit)
        return true
    }

    /// Runs `body` on a copy of the current version and records what it made as one step
    /// alone (a controller's synchronous transaction); nothing is recorded if `body` throws.
    /// For a `Versionable` value, the overload in History+LentTrees.swift records the value's
    /// trees as `body` writes them.
    @inlinable
    package mutating func recordTransaction<E: Error>(
        annotation: Annotation, policy: HistoryPolicy, _ body: (inout Value) throws(E) -> Void
    ) throws(E) -> Value {
        var value = current
        try body(&value)
        record(value, annotation: annotation, grouping: .alone, policy: policy)
        return value
    }

    /// Makes `value` the current version without recording a step: undo will not take this
    /// change back. Earlier steps still apply wherever `value` agrees with the version they
    /// were made from.
    ///
    /// An open group stays open, so a drag interrupted by untracked pointer moves is still one
    /// step: its base takes the untracked change too, so the step never holds it. If the
    /// untracked change overlaps the group's own changes, the group ends instead.
    ///
    /// - Parameter comparison: How `value` is compared with the current version (see
    ///   ``Comparison``).
    @inlinable
    package mutating func recordWithoutTracking(_ value: Value, comparing comparison: Comparison? = nil) {
        guard !isBitwiseIdentical(value, current) else { return }
        recordWithoutTracking(value, difference: difference(of: value, by: comparison))
    }

    /// `value` compared with the current version by `comparison`, or by
    /// ``recordedDifference(_:from:)`` when there is none.
    @inlinable
    func difference(of value: Value, by comparison: Comparison?) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]) {
        // Not a default argument of `recordedDifference` itself: where the caller's code is not
        // specialized for `Value` (the controller's), that closure would be allocated on every
        // recorded change (callgrind, edit-title: one allocation more a step).
        if let comparison { comparison(value, current) } else { recordedDifference(value, from: current) }
    }

    /// ``recordWithoutTracking(_:comparing:)``, once `difference` has compared `value` with the current
    /// version.
    @inlinable
    mutating func recordWithoutTracking(
        _ value: Value, difference: (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>])
    ) {
        defer { checkInvariantsInDebugBuilds() }
        let (change, ignored) = difference
        defer { adoptIgnoredProperties(ignored, of: value) }
        guard let change else { return }
        hasAbsorbedWrites = true
        if var open = group {
            if (try? change.inverted.revert(&open.base)) != nil {
                group = open
            } else {
                group = nil
            }
        }
        advanceReference(to: value, by: change)
    }

    /// Makes the current version `value`, which `change` (the reversion from `value` back to
    /// the current version) tells apart from it, by applying `change` forward to the history's
    /// own copy.
    ///
    /// Not by adopting `value`: equality cannot see everything reversions check. A string
    /// re-spelled in a canonically equivalent form (`"é"` as `"e\u{301}"`) is equal, so no
    /// reversion records the re-spelling; adopted, it would make every older step at that
    /// string, which checks exact bytes, fail forever. Applied in place, the change costs its
    /// own size, and `value`'s storage stays the caller's alone.
    @inlinable
    mutating func advanceReference(to value: Value, by change: Reversion<Value>) {
        var next = reference!
        reference = nil
        // Unchecked: `change` was made from this very version, so the check before writing
        // cannot fail, and would read every location the change writes once more.
        // Toward `value`: the copy then shares `value`'s storage where it holds the very
        // same bytes, which a check of exact bytes allows, where equality would not.
        if change.inverted.revertUnchecked(&next, toward: value) {
            reference = next
        } else {
            // Cannot happen, for the same reason.
            reference = value
        }
    }

    /// Takes the content of `ignored` (the places, at any depth, that the comparison with
    /// `value` found its type ignores: ``Reverter/ignore(_:)``) from `value`: no step records
    /// them, and undo and redo hand them back as the caller last set them.
    @inlinable
    mutating func adoptIgnoredProperties(_ ignored: [IgnoredProperty<Value>], of value: Value) {
        guard !ignored.isEmpty else { return }
        ignored.copy(from: value, into: &reference!)
    }

    /// Makes `version`, an earlier version, the current one again for `value`, which equals
    /// it but may differ in ignored places: those come from `value`, found by comparing the
    /// two (a rare path: a group whose changes came back to where it started).
    @usableFromInline
    mutating func resetReference(to version: Value, adoptingIgnoredPropertiesOf value: Value) {
        reference = version
        adoptIgnoredProperties(recordedDifference(value, from: version).ignored, of: value)
    }

    /// The one place a step is made: recording, a per-author move and a popped scope's
    /// squash all add theirs here, after the current version of the current scope, which
    /// moves to it. The steps redo would have taken stay, as a branch: a change after an undo
    /// loses nothing. The caller trims to the limit once the reference is back.
    ///
    /// - Parameter version: The new version's identifier; a new one unless given (a popped
    ///   scope's step leads to the version the scope ended on, which keeps its tags).
    @inlinable
    mutating func appendStep(
        _ reversion: Reversion<Value>,
        version: HistoryVersion? = nil,
        annotation: Annotation,
        time: Duration,
        changeCount: Int = 1,
        authorship: StepAuthorship?
    ) {
        // The oldest version's time is unknown until the first step (a state made without a
        // clock, or history removed): taking the first step's keeps moves by time from it sane.
        if top == 0, scopes[0].steps.isEmpty, scopes[0].floorTime == .zero {
            scopes[0].floorTime = time
        }
        scopes[top].append(RecordedStep(
            reversion: reversion,
            version: version ?? makeVersionID(),
            annotation: annotation,
            time: time,
            changeCount: changeCount,
            authorship: authorship
        ))
    }
}

/// Whether `lhs` and `rhs` hold the very same bytes: then they are the same value (the same
/// storage, where they have any), and no comparison can find a change between them. Padding
/// may differ between equal values, which only sends the caller to the full comparison.
///
/// The history's copy and the caller's value often are: the copy takes the value's storage
/// wherever it holds the same bytes (``History/advanceReference(to:by:)``), and every history
/// command first absorbs what the value holds that the copy does not.
@inlinable
func isBitwiseIdentical<T>(_ lhs: T, _ rhs: T) -> Bool {
    withUnsafeBytes(of: lhs) { lhs in
        withUnsafeBytes(of: rhs) { rhs in
            var offset = 0
            let words = lhs.count / MemoryLayout<UInt>.size * MemoryLayout<UInt>.size
            while offset < words {
                guard lhs.loadUnaligned(fromByteOffset: offset, as: UInt.self)
                    == rhs.loadUnaligned(fromByteOffset: offset, as: UInt.self) else { return false }
                offset += MemoryLayout<UInt>.size
            }
            while offset < lhs.count {
                guard lhs[offset] == rhs[offset] else { return false }
                offset += 1
            }
            return true
        }
    }
}
