extension TreeArray: Revertible where Element: Identifiable & Versionable {

    /// Returns the changes that turn this tree back into `previous`, or `nil` when the two
    /// are equal: per-element edits by id, and inserted, removed and moved elements, as for an
    /// array of identifiable values.
    ///
    /// The chunks the two versions share are skipped by identity, never read.
    ///
    /// - Complexity: O(log *n*) plus the size of the change when one version was made from
    ///   the other by a few edits (each copying one path of chunks); O(*d*), where *d* is the
    ///   number of elements in chunks the versions do not share, in general.
    public func reversion(to previous: TreeArray) -> Reversion<TreeArray>? {
        guard root !== previous.root else { return nil }
        var differ = TreeArrayDiffer<Element>()
        differ.compare(old: previous.root, new: root)
        return differ.makeNode(oldCount: previous.count, newCount: count).map { Reversion(node: $0) }
    }

    /// How many nodes the comparison with `previous` visits: the measure of its cost that
    /// tests can assert without timing.
    func nodesVisitedComparing(with previous: TreeArray) -> Int {
        guard root !== previous.root else { return 0 }
        var differ = TreeArrayDiffer<Element>()
        differ.compare(old: previous.root, new: root)
        return differ.visitedNodes
    }
}
