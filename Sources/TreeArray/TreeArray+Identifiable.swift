extension TreeArray where Element: Identifiable {

    /// The position of the first element whose id is `id`, or `nil` if there is none.
    ///
    /// The first lookup on a version builds its identity index, a hash trie from ids to the
    /// elements' places in the tree, in O(*n*); every mutation after it keeps the index up to
    /// date in O(log *n*), and versions share it as they share their chunks, so later lookups
    /// on this tree and on versions made from it cost O(log *n*).
    ///
    /// - Complexity: O(log *n*) once this version or the one it was made from has an index;
    ///   O(*n*) for the first lookup.
    @inlinable
    public func index(id: Element.ID) -> Int? {
        guard let key = identityTrie().firstKey(of: id) else { return nil }
        let position = root.position(ofKey: key)
        assert(position.map { self[$0].id == id } ?? false, "TreeArray identity index is out of date")
        return position
    }

    /// The first element whose id is `id`, or `nil` if there is none.
    ///
    /// Setting a value replaces that element, or appends the value when no element has the
    /// id; setting `nil` removes the element. A value set must have the id `id`.
    ///
    /// ```swift
    /// shapes[id: circle.id]?.color = .red
    /// ```
    ///
    /// - Complexity: O(log *n*) to read or write once the tree has an identity index (see
    ///   ``index(id:)``), O(*n*) for the first lookup.
    @inlinable
    public subscript(id id: Element.ID) -> Element? {
        get {
            index(id: id).map { self[$0] }
        }
        set {
            if let newValue {
                precondition(newValue.id == id, "TreeArray: the element set for an id must have that id")
            }
            switch (index(id: id), newValue) {
            case let (index?, newValue?): self[index] = newValue
            case let (index?, nil): remove(at: index)
            case let (nil, newValue?): append(newValue)
            case (nil, nil): break
            }
        }
    }

    /// The identity index of this version, built if it has none.
    @inlinable
    func identityTrie() -> TreeArrayIDTrie<Element.ID> {
        if let cell = root.existingIdentityCell, let identities = cell.identities(validFor: root.stamp, take: false) {
            return TreeArrayIDTrie(root: unsafeDowncast(identities.trie, to: TreeArrayIDTrieNode<Element.ID>.self))
        }
        var trie = TreeArrayIDTrie<Element.ID>()
        root.forEachLeafWithKeys { elements, keys in
            for position in elements.indices {
                trie.insert(elements[position].id, key: keys[position])
            }
        }
        let identities = TreeArrayIdentities(stamp: root.stamp, trie: trie.root, operations: TreeArrayIdentityOperations<Element>.trie)
        let cell = root.identityCellMakingOne
        cell.store(identities)
        return trie
    }
}

extension TreeArrayNode {

    /// Calls `body` with each leaf's elements and keys, in order.
    @inlinable
    func forEachLeafWithKeys(_ body: (UnsafeBufferPointer<Element>, ContiguousArray<UInt64>) throws -> Void) rethrows {
        if isLeaf {
            let keys = keys
            try withElements { try body(UnsafeBufferPointer($0), keys) }
        } else {
            for position in 0 ..< width {
                try child(position).forEachLeafWithKeys(body)
            }
        }
    }
}
