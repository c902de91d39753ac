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
    @inlinable
    public func reversion(to previous: TreeArray) -> Reversion<TreeArray>? {
        guard !Node.known(root, equalTo: previous.root) else { return nil }
        var differ = TreeArrayDiffer<Element>()
        differ.compare(old: previous.root, new: root)
        return differ.makeReversion(from: previous.root, to: root)
    }

    /// How many nodes the comparison with `previous` visits: the measure of its cost that
    /// tests can assert without timing.
    func nodesVisitedComparing(with previous: TreeArray) -> Int {
        guard !Node.known(root, equalTo: previous.root) else { return 0 }
        var differ = TreeArrayDiffer<Element>()
        differ.compare(old: previous.root, new: root)
        return differ.visitedNodes
    }
}

extension TreeArray {

    /// Records, in this tree's nodes, that they hold the same elements as `other`'s nodes at
    /// the same places, so that comparisons between the two skip them as if they were shared.
    ///
    /// Call only when this tree holds exactly `other`'s elements. Links the nodes on the paths
    /// to `positions` (where a change wrote: elsewhere the two trees share their nodes), only
    /// those this tree references uniquely (writing a link is a mutation), and only down to
    /// where the two trees' nodes are cut alike. A node left unlinked costs a later
    /// comparison a read of it, never a wrong answer.
    ///
    /// - Complexity: O(*p* log *n*) for *p* positions: one path each, not every child of
    ///   every node on it (this runs unspecialized, once per recorded step).
    mutating func linkTwins(to other: Node, along positions: [Int]) {
        guard isKnownUniquelyReferenced(&root) else { return }
        for position in positions {
            Node.link(root, to: other, along: position)
        }
    }
}

extension TreeArrayNode {

    /// Links `node`, uniquely referenced and holding exactly `other`'s elements, and the nodes
    /// below it on the path to `index`, as twins of `other`'s.
    static func link(_ node: Node, to other: Node, along index: Int) {
        var (node, other, index) = (node, other, index)
        while node !== other {
            node.twinID = ObjectIdentifier(other)
            node.twinStamp = other.stamp
            guard !node.isLeaf, node.height == other.height, node.count > 0, node.ends == other.ends else { return }
            let (child, offset) = node.child(containing: Swift.min(Swift.max(index, 0), node.count - 1))
            guard isKnownUniquelyReferenced(&node.children[child]) else { return }
            (node, other, index) = (node.children[child], other.children[child], offset)
        }
    }
}
