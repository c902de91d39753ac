// Recording a reducer's run as its trees write it (issue 39). The history's copy of the
// present shares the present's `TreeArray`s; while the copy holds them, every write the
// reducer makes copies the path of chunks it shares, and the step is then found by comparing
// the two versions. Instead, `lendTrees` takes the copy's trees away before the run and
// opens a journal (TreeArray/TreeArrayJournal.swift) that each tree's first write reports
// to; `record(_:lentTrees:...)` turns what the journal saw into the step, and the copy takes
// the present's trees back. Wherever the journal cannot vouch for a tree, the copy gets the
// tree's older version back from the journal and the step is found by comparison, as always.

extension History where Value: Versionable {

    /// Lends the `TreeArray`s that `present` (which must be the current version, byte for
    /// byte) registers at stored key paths to the reducer about to run on it, and opens the
    /// journal their writes report to on this thread. Returns `nil`, lending nothing, when no
    /// tree can be lent: none registered, one at a computed key path or shared by two places,
    /// a group open, a journal already open, or `policy` says not to.
    @inlinable
    package mutating func lendTrees(to present: Value, policy: HistoryPolicy) -> LentTrees<Value>? {
        guard policy.recordsWrites, group == nil, let held = reference, isBitwiseIdentical(present, held) else { return nil }
        let journal = TreeArrayJournal()
        var lending = TreeArrayLending(reference: held, journal: journal)
        held.addReversions(into: &lending)
        guard !lending.isRefused, !lending.trees.isEmpty, journal.open() else { return nil }
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
    /// history's copy its trees back: the step is what the journal saw them take, or, where
    /// it cannot vouch for them, what comparing the versions finds
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
        guard let change = journaledChange(of: value, lentTrees: lentTrees, grouping: grouping, policy: policy) else {
            return record(value, annotation: annotation, grouping: grouping, author: author, policy: policy, comparing: versionedDifference)
        }
        journaledStepCount += 1
        return record(
            value, difference: (change, []), journaled: true, annotation: annotation,
            changeCount: 1, grouping: grouping, author: author, policy: policy
        )
    }

    /// The change the lent trees took, with the history's copy holding `value` (`.some(nil)`
    /// when they took none); or `nil`, with the copy back at the version before the run,
    /// where the journal cannot vouch for a tree, something else changed too, or the step
    /// would open a group (which keeps the version before it).
    @inlinable
    mutating func journaledChange(
        of value: Value, lentTrees: LentTrees<Value>, grouping: Grouping, policy: HistoryPolicy
    ) -> Reversion<Value>?? {
        var nodes: [any ReversionNode<Value>] = []
        var isVouched = !(grouping.mark(at: .zero).map { opensGroup($0, policy: policy) } ?? false)
        for tree in lentTrees.trees where isVouched {
            switch tree.perform(.describe, &reference!, value) {
            case let .changed(node): nodes.append(node)
            case .distrusted: isVouched = false
            case .unchanged, .done: break
            }
        }
        if isVouched {
            for tree in lentTrees.trees {
                _ = tree.perform(.adopt, &reference!, value)
            }
            // The journal knows the trees only: anything else the run wrote (even an equal
            // value in other storage) is the comparison's to describe.
            isVouched = isBitwiseIdentical(value, reference!)
        }
        guard isVouched else {
            returnLentTrees(lentTrees, unrecorded: value)
            return nil
        }
        guard let first = nodes.first else { return .some(nil) }
        return Reversion(node: nodes.count == 1 ? first : combinedNode(nodes))
    }
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
