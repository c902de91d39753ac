extension TreeArrayChangeNode: EncodableReversionNode, SavedAlikeRerooted {

    /// A change at a key path is written as it was when a key path's node held the tree's
    /// change: that node, then the tree's change as its child.
    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        guard let keyPath else {
            try encodeTree(into: &container)
            return
        }
        try container.encodeKind(.path, at: keyPath)
        var child = container.nestedContainer(keyedBy: NodeCodingKey.self, forKey: .child)
        try encodeTree(into: &child)
    }
}

extension TreeArrayChange {

    /// The same content as an identifiable array's change; the trees it was made from are
    /// not written (they only let a history skip a comparison in this process).
    func encodeTree(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.tree, forKey: .kind)
        try IdentifiedChangeContent(edits: Array(edits), structure: structure, oldCount: oldCount, newCount: newCount)
            .encode(into: &container, at: "\\\(Tree.self).self")
    }
}

extension DecodedNode {

    /// The changes of a ``TreeArray``: `Root` must be a tree of `Decodable` elements with
    /// `Decodable` ids.
    static func treeArrayChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        guard let treeType = Root.self as? any TreeArrayChangeDecoding.Type else {
            throw container.corrupted(
                "a tree array's changes were saved where \(Root.self) now is, not a TreeArray of Decodable elements with Decodable ids",
                at: .kind
            )
        }
        return DecodedNode(try treeType.treeArrayChange(as: Root.self, from: container))
    }
}

/// Opens a tree array type found at run time, to reach its element type.
protocol TreeArrayChangeDecoding {
    static func treeArrayChange<Root>(as root: Root.Type, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension TreeArray: TreeArrayChangeDecoding where Element: Identifiable & Versionable & Decodable, Element.ID: Decodable {

    static func treeArrayChange<Root>(as root: Root.Type, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let content = try IdentifiedChangeContent<Element>(from: container, at: "\\\(Self.self).self")
        let change = TreeArrayChangeNode<Self, Element>(
            at: nil, edits: IdentifiedArrayEdits(content.edits), structure: content.structure,
            oldCount: content.oldCount, newCount: content.newCount
        )
        guard let node = reversionNode(change, as: Root.self) else {
            throw container.corrupted("\(Root.self) is not \(Self.self)", at: .kind)
        }
        return node
    }
}
