extension TreeArray {

    /// Traps unless the tree has the shape it promises: every count, running end and last key
    /// agrees with the children, children sit one level lower, no node holds more than its
    /// capacity, every node's storage has room for its entries (every branch the full room),
    /// no leaf below the root is empty, and the order keys
    /// increase strictly along the whole tree.
    ///
    /// Run after each mutation in debug builds of the package (on trees of up to 4,096
    /// elements, where it costs little next to the mutation), and by the randomized tests.
    ///
    /// - Complexity: O(*n*).
    @usableFromInline
    func _invariantCheck() {
        var previousKey: UInt64 = 0
        func check(_ node: Node, isRoot: Bool) {
            if node.isLeaf {
                precondition(node.count == node.elements.count, "TreeArray: a leaf's count is not its number of elements")
                precondition(node.keys.count == node.elements.count, "TreeArray: a leaf has not one key per element")
                precondition(isRoot || !node.elements.isEmpty, "TreeArray: an empty leaf below the root")
                precondition(node.elements.count <= Node.leafCapacity, "TreeArray: an overfull leaf")
                precondition(node.width <= node.slots && node.slots <= Node.leafSlots, "TreeArray: a leaf holds more than its room")
                for key in node.keys {
                    precondition(key > previousKey && key < .max, "TreeArray: order keys do not increase")
                    previousKey = key
                }
                return
            }
            precondition(node.slots == Node.branchSlots, "TreeArray: a branch without full room")
            node.withUnsafeMutablePointerToElements { tail in
                let ends = Node.ends(in: tail)
                precondition(ends[-1] == 0 && (node.width ..< Node.branchSlots).allSatisfy { ends[$0] == .max },
                             "TreeArray: a branch's ends are not framed by 0 and Int.max")
                let stride = node.withUnsafeMutablePointerToHeader { $0.pointee.childSize }
                precondition(stride == 0 || stride == Node.childSize(ends: ends, width: node.width), "TreeArray: a branch's stride is wrong")
            }
            precondition(node.ends.count == node.children.count && node.lastKeys.count == node.children.count,
                         "TreeArray: a branch's ends or last keys do not match its children")
            precondition(!node.children.isEmpty && node.children.count <= Node.branchCapacity, "TreeArray: a branch's width is out of bounds")
            precondition(!isRoot || node.children.count > 1, "TreeArray: a branch root with one child")
            var total = 0
            let (ends, lastKeys) = (node.ends, node.lastKeys)
            for (position, child) in node.children.enumerated() {
                precondition(child.height == node.height - 1, "TreeArray: a child at the wrong height")
                check(child, isRoot: false)
                total += child.count
                precondition(ends[position] == total, "TreeArray: a running end is wrong")
                precondition(lastKeys[position] == child.lastKey, "TreeArray: a last key is wrong")
            }
            precondition(node.count == total, "TreeArray: a branch's count is wrong")
        }
        check(root, isRoot: true)
    }

    /// ``_invariantCheck()`` in debug builds, on trees small enough for it to cost little.
    @inlinable @inline(__always)
    func _debugInvariantCheck() {
        #if DEBUG
        if root.count <= 4_096 { _invariantCheck() }
        #endif
    }
}

extension TreeArray where Element: Identifiable {

    /// Traps unless this version's identity index, if it has one, holds exactly each element's
    /// id with its key.
    ///
    /// - Complexity: O(*n* log *n*).
    func _identityInvariantCheck() {
        guard let identities = root.existingIdentityCell?.identities(validFor: root.stamp, take: false) else { return }
        let trie = unsafeDowncast(identities.trie, to: TreeArrayIDTrieNode<Element.ID>.self)
        var indexed: [UInt64: Element.ID] = [:]
        trie.forEachKey { id, key in
            precondition(indexed.updateValue(id, forKey: key) == nil, "TreeArray: the identity index holds a key twice")
        }
        precondition(indexed.count == count, "TreeArray: the identity index holds \(indexed.count) keys for \(count) elements")
        root.forEachLeafWithKeys { elements, keys in
            for position in elements.indices {
                precondition(indexed[keys[position]] == elements[position].id, "TreeArray: the identity index has a wrong id for a key")
            }
        }
    }
}
