// Recording a reducer's run as its trees write it (issue 39). The history's copy of the
// present shares the present's `TreeArray`s; while the copy holds them, every write the
// reducer makes copies the path of chunks it shares, and the step is then found by comparing
// the two versions. Instead, `lendTrees` takes the copy's trees away before the run and
// opens a journal (TreeArray/TreeArrayJournal.swift) that each tree's first write reports
// to; `record(_:lentTrees:...)` turns what the journal saw into the step, and the copy takes
// the present's trees back. The step is the comparison's walk of the present's registrations
// with each tree's change taken from the journal, so whatever else the run wrote is found by
// comparing the rest (TreeArray/TreeArrayJournaledComparison.swift). Wherever the journal, or
// that walk, cannot vouch for a tree, the copy gets the tree's older version back from the
// journal and the step is found by comparison, as always.

extension History where Value: Versionable {

    /// Lends the `TreeArray`s that the current version registers at stored key paths to the
    /// reducer about to run on `present`, which must hold each of them (the same storage), and
    /// opens the journal their writes report to on this thread. Returns `nil`, lending nothing,
    /// when no tree can be lent: none registered, one at a computed key path or shared by two
    /// places, one `present` does not hold, a group open, a journal already open, or `policy`
    /// says not to.
    ///
    /// The rest of `present` may differ from the current version: the walk after the run
    /// compares it (`journaledDifference`). Requiring the very same bytes would lend nothing
    /// wherever a property leaves padding before the next (an `Int?` before a tree): a copy
    /// of a value, or a value made anew (decoded), need not copy or zero the padding.
    @inlinable
    package mutating func lendTrees(to present: Value, policy: HistoryPolicy) -> LentTrees<Value>? {
        guard policy.recordsWrites, group == nil, let held = reference else { return nil }
        let journal = TreeArrayJournal()
        var lending = TreeArrayLending(reference: held, journal: journal)
        held.addReversions(into: &lending)
        guard !lending.isRefused, !lending.trees.isEmpty,
              lending.trees.allSatisfy({ holdsSameTree(present, held, at: $0.offset) }), journal.open()
        else { return nil }
        let trees = lending.trees
        for tree in trees {
            _ = tree.perform(.takeBack, &reference!, present)
        }
        return LentTrees(journal: journal, trees: trees)
    }

    /// ``recordTransaction(annotation:policy:_:)`` with the current version's trees lent to
    /// `body` (see ``lendTrees(to:policy:)``): its writes to them are made in place and become
    /// the step as they are made, with no comparison where the journal can vouch for them.
    @inlinable
    package mutating func recordTransaction<E: Error>(
        annotation: Annotation, policy: HistoryPolicy, _ body: (inout Value) throws(E) -> Void
    ) throws(E) -> Value {
        var value = current
        guard let lentTrees = lendTrees(to: value, policy: policy) else {
            try body(&value)
            record(value, annotation: annotation, grouping: .alone, policy: policy, comparing: versionedDifference)
            return value
        }
        do {
            try body(&value)
        } catch {
            returnLentTrees(lentTrees, unrecorded: value)
            checkInvariantsInDebugBuilds()
            throw error
        }
        record(value, lentTrees: lentTrees, annotation: annotation, grouping: .alone, author: nil, policy: policy)
        return value
    }

    /// Closes the journal (if still open) and gives the history's copy its trees back as they
    /// were lent, after a run whose result, `unrecorded`, is not recorded from the journal: a
    /// transaction that threw, or a run the journal cannot vouch for, which is compared.
    @inlinable
    mutating func returnLentTrees(_ lentTrees: LentTrees<Value>, unrecorded: Value) {
        lentTrees.journal.close()
        for tree in lentTrees.trees {
            _ = tree.perform(.restore, &reference!, unrecorded)
        }
    }

    /// Records `value`, the present after the run its trees were lent to, and gives the
    /// history's copy its trees back: the step is what the journal saw them take, with
    /// whatever else the run changed found by comparing the rest, or, where the journal
    /// cannot vouch for them, what comparing the versions finds
    /// (``record(_:annotation:changeCount:grouping:author:policy:comparing:)``).
    @discardableResult
    @inlinable
    package mutating func record(
        _ value: Value,
        lentTrees: LentTrees<Value>,
        annotation: Annotation,
        grouping: Grouping,
        author: HistoryAuthor?,
        policy: HistoryPolicy
    ) -> Bool {
        lentTrees.journal.close()
        guard let difference = journaledChange(of: value, lentTrees: lentTrees, grouping: grouping, policy: policy) else {
            return record(value, annotation: annotation, grouping: grouping, author: author, policy: policy, comparing: versionedDifference)
        }
        journaledStepCount += 1
        return record(
            value, difference: difference, journaled: true, annotation: annotation,
            changeCount: 1, grouping: grouping, author: author, policy: policy
        )
    }

    /// The change the run made, as comparing `value` with the history's copy would find it,
    /// with the copy then holding `value` but for the ignored places listed; or `nil`, with
    /// the copy back at the version before the run, where the journal cannot vouch for a
    /// tree, `value`'s registrations cannot be walked without the trees' older versions (see
    /// `TreeArrayJournaledComparison`), or the step would open a group (which keeps the
    /// version before it).
    @inlinable
    mutating func journaledChange(
        of value: Value, lentTrees: LentTrees<Value>, grouping: Grouping, policy: HistoryPolicy
    ) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>])? {
        var nodes: [any ReversionNode<Value>] = []
        // Bit `i` for the `i`th lent tree, when it changed: the comparison below takes its
        // node from `nodes` (a value lending more trees than bits is compared instead).
        var changed: UInt64 = 0
        var isVouched = !(grouping.mark(at: .zero).map { opensGroup($0, policy: policy) } ?? false)
        for (index, tree) in lentTrees.trees.enumerated() where isVouched {
            switch tree.perform(.describe, &reference!, value) {
            case let .changed(node):
                nodes.append(node)
                if index < UInt64.bitWidth { changed |= 1 << index }
            case .distrusted: isVouched = false
            case .unchanged, .done: break
            }
        }
        if isVouched {
            for tree in lentTrees.trees {
                _ = tree.perform(.adopt, &reference!, value)
            }
            // Nothing changed at all: no step.
            if nodes.isEmpty, isBitwiseIdentical(value, reference!) { return (nil, []) }
            // The walk of `value`'s registrations, even when only the trees changed: the
            // lending walk ran on the version before the run, and a registration may depend on
            // what the run changed (a tree registered only while not empty, a tree or the
            // whole value stored whole when `hasChanged` says the tree changed, a value
            // derived from the tree at a computed key path). The walk then reaches another
            // tree, misses one, or reads a changed one, and the run is compared instead. With
            // no tree changed, the comparison costs no more than this would (the trees are
            // the same storage on both sides).
            if !nodes.isEmpty, lentTrees.trees.count <= UInt64.bitWidth,
               let difference = journaledDifference(of: value, trees: lentTrees.trees, nodes: nodes, changed: changed) {
                return difference
            }
        }
        returnLentTrees(lentTrees, unrecorded: value)
        return nil
    }

    /// The change from the history's copy, which holds `value`'s lent trees (`trees`; those
    /// whose bit is set in `changed` took, in order, the changes `nodes`), to `value`, which
    /// may differ elsewhere too: the comparison's walk, with each tree's change taken from the
    /// journal (`TreeArrayJournaledComparison`). The copy then takes the rest of the change;
    /// `nil`, with the copy untouched, where the walk cannot answer as the comparison would.
    @inlinable
    mutating func journaledDifference(
        of value: Value, trees: [LentTree<Value>], nodes: [any ReversionNode<Value>], changed: UInt64
    ) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>])? {
        // Another entity: the comparison stores the whole value, trees and all. The very same
        // bytes (only the trees changed, and the copy holds the present's now) are the same
        // entity, which spares asking the type whether it has an identity on each step.
        guard isBitwiseIdentical(value, reference!) || !hasDifferentIdentity(value, reference!) else { return nil }
        var isDistrusted = false
        // The walk, which holds a copy of the history's copy, ends inside: the copy is then
        // the only holder of its storage when it takes the rest of the change in place.
        let found = withUnsafeMutablePointer(to: &isDistrusted) { distrust in
            var walk = TreeArrayJournaledComparison(
                previous: reference!, current: value, trees: trees, nodes: nodes, changed: changed, distrust: distrust
            )
            value.addReversions(into: &walk)
            return walk.result()
        }
        guard let found else { return nil }
        if let rest = found.rest {
            advanceReference(to: value, by: Reversion(node: rest))
        }
        return (Reversion(node: found.node), found.ignored)
    }
}

/// Whether `present` holds at `offset` the very tree `held` holds there: the same root.
@inlinable
func holdsSameTree<Value>(_ present: Value, _ held: Value, at offset: Int) -> Bool {
    // A tree is one reference, whatever its element type.
    storedProperty(at: offset, of: present, as: UInt.self) == storedProperty(at: offset, of: held, as: UInt.self)
}

/// The trees a history lent to a reducer's run, and the journal their writes report to.
@usableFromInline
package struct LentTrees<Value> {
    @usableFromInline let journal: TreeArrayJournal
    @usableFromInline let trees: [LentTree<Value>]

    @inlinable
    init(journal: TreeArrayJournal, trees: [LentTree<Value>]) {
        self.journal = journal
        self.trees = trees
    }
}
