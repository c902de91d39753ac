extension TreeArray: Equatable where Element: Equatable {

    /// Whether the two trees hold equal elements in the same order.
    ///
    /// Chunks the two trees share are skipped by identity, without reading their elements.
    ///
    /// - Complexity: O(1) for copies of one another; otherwise O(*d* log *n*), where *d* is
    ///   the number of elements in chunks the two trees do not share (O(*n*) at worst).
    public static func == (lhs: TreeArray, rhs: TreeArray) -> Bool {
        Node.known(lhs.root, equalTo: rhs.root) || (lhs.count == rhs.count && Node.equal(lhs.root, rhs.root))
    }
}

extension TreeArrayNode where Element: Equatable {

    /// Whether two subtrees hold equal elements, skipping the children they share.
    static func equal(_ lhs: Node, _ rhs: Node) -> Bool {
        if known(lhs, equalTo: rhs) { return true }
        guard lhs.count == rhs.count else { return false }
        if lhs.isLeaf, rhs.isLeaf {
            return lhs.withElements { left in rhs.withElements { right in left.elementsEqual(right) } }
        }
        if lhs.height == rhs.height, Node.sameEnds(lhs, rhs) {
            for position in 0 ..< lhs.width where !equal(lhs.child(position), rhs.child(position)) {
                return false
            }
            return true
        }
        // Chunk boundaries differ: compare element by element.
        return TreeArray(root: lhs).elementsEqual(TreeArray(root: rhs))
    }
}
