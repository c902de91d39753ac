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
    /// Call only when this tree holds exactly `other`'s elements. Links only nodes this tree
    /// references uniquely (writing a link is a mutation), and only down to where the two
    /// trees' nodes are cut alike.
    mutating func linkTwins(to other: Node) {
        guard isKnownUniquelyReferenced(&root) else { return }
        Node.link(root, to: other)
    }
}

extension TreeArrayNode {

    /// Links `node`, uniquely referenced and holding exactly `other`'s elements, and the
    /// children below it that differ from `other`'s, as twins of `other`'s.
    static func link(_ node: Node, to other: Node) {
        if known(node, equalTo: other) { return }
        if !node.isLeaf, node.height == other.height, node.ends == other.ends {
            for index in node.children.indices where !known(node.children[index], equalTo: other.children[index]) {
                if isKnownUniquelyReferenced(&node.children[index]) {
                    link(node.children[index], to: other.children[index])
                }
            }
        }
        node.twinID = ObjectIdentifier(other)
        node.twinStamp = other.stamp
    }
}
