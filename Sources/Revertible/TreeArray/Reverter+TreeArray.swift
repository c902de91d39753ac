extension Reverter {

    /// Records the changes of a ``TreeArray`` of identifiable values by identity: inserted and
    /// removed elements, moves, and the edits inside elements that kept their identity.
    ///
    /// The same reversion as the generic `Revertible` overload gives; this one is always
    /// inlined, so the walk over the two trees is specialized for `Element` in the caller's
    /// module (where `addReversions(into:)` stays generic over the reverter, nothing called
    /// from it would be specialized otherwise).
    ///
    /// - Complexity: O(log *n*) plus the size of the change, when the tree was edited from
    ///   the version being compared with.
    @inlinable @inline(__always)
    public mutating func appendReversion<Element: Identifiable & Versionable>(
        at keyPath: WritableKeyPath<Root, TreeArray<Element>>
    ) {
        // A history lending its trees to a reducer's run walks here too (`TreeArrayLending`),
        // and so does its comparison after the run (`TreeArrayJournaledComparison`); where the
        // reverter's type is known, as in every other comparison, these fold away.
        if asReverter(TreeArrayLending<Root>.self, { $0.lend(at: keyPath) })
            || asReverter(TreeArrayJournaledComparison<Root>.self, { $0.appendJournaled(at: keyPath) }) {
            return
        }
        let (previous, current) = versions(at: keyPath)
        // A stored property: the change carries the key path itself (one heap block a step,
        // where a key path's node around it would add one), rooted here. A computed one is
        // handed over at its key path, so the reverter learns that it has no name to save.
        guard MemoryLayout<Root>.offset(of: keyPath) != nil else {
            let (reversion, ignored) = current.difference(from: previous)
            keep(ignored.rerooted(at: keyPath))
            guard let reversion else { return }
            append(reversion, at: keyPath)
            return
        }
        let (reversion, ignored) = current.difference(from: previous, at: keyPath)
        keep(ignored.rerooted(at: keyPath))
        guard let reversion else { return }
        appendAtRoot(reversion)
    }
}
