// The seam between this module and the Revertible module's support for trees
// (Sources/Revertible/TreeArray): the whole `package` API of TreeArray, everything else being
// internal. Revertible's comparison of two versions, and its history's sharing of nodes with
// the present, walk the nodes themselves, specialized for the element type through
// `@inlinable` code in the client's module, so the seam is made of node reads rather than of
// whole operations. Twin linking, which writes node headers, is the one operation it asks for.
//
// `TreeArray`:
// - `Node`, `root`: the root of a version, where every walk starts; written only when a
//   history's copy of the present takes the present's root whole.
// - `linkTwins(to:along:)`: below, the history's record that a copy holds a newer version's
//   elements.
//
// `TreeArrayNode` (and `TreeArrayNodeHeader`, `package` only because the node's superclass
// names it; none of its members is):
// - `Node`, `count` (read only), `height`, `width`, `isLeaf`: a node's shape.
// - `known(_:equalTo:)`: nodes a comparison skips without reading them (shared, or twins).
// - `child(_:)`, `children`, `withChildren(_:)`, `start(ofChild:)`, `sameEnds(_:_:)`: a
//   branch's children and where they are cut, to pair up two versions' children.
// - `elements`, `withElements(_:)`, `keys`, `lastKeys`: what a node holds, to compare
//   leaves and to check that two nodes are interchangeable.
// - `isChildUnique(_:)`, `setChild(_:_:)`: a history's copy of the present taking the
//   present's child in place of its own equal one.
//
// Tests that inspect more (capacities, invariant checks, the identity index) import this
// module `@testable`.

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
    package mutating func linkTwins(to other: TreeArray, along positions: [Int]) {
        guard isKnownUniquelyReferenced(&root) else { return }
        for position in positions {
            Node.link(root, to: other.root, along: position)
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
            guard !node.isLeaf, node.height == other.height, node.count > 0, Node.sameEnds(node, other) else { return }
            let (child, offset) = node.child(containing: Swift.min(Swift.max(index, 0), node.count - 1))
            guard node.isChildUnique(child) else { return }
            (node, other, index) = (node.child(child), other.child(child), offset)
        }
    }
}
