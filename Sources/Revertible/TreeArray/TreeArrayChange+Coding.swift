extension TreeArrayChangeNode: EncodableReversionNode {

    /// A change at a key path is written as it was when a key path's node held the tree's
    /// change: that node, then the tree's change as its child. Read back, such a change is
    /// re-rooted (see `DecodedNode.keyPathChange(from:)`), so a decoded history holds the same
    /// nodes as a recorded one and writes the same bytes.
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
        guard let treeType = treeArrayChangeDecoding(Root.self) else {
            throw container.corrupted(
                "a tree array's changes were saved where \(Root.self) now is, not a TreeArray of Decodable elements with Decodable ids",
                at: .kind
            )
        }
        return DecodedNode(try treeType.treeArrayChange(as: Root.self, from: container), isTreeArrayChange: true)
    }
}

extension ChangeFields where Key == NodeCodingKey {

    /// The change under `key`, when it is a tree array's change and `Value` such a tree, read
    /// straight at `keyPath`: the node ``node(_:forKey:)`` reads there, re-rooted at `keyPath`,
    /// with the same checks in the same order (the depth, then the content), without making
    /// the unrooted node first. `nil` otherwise, and always from a `Decoder`: the caller then
    /// reads it with ``node(_:forKey:)``, which also names whatever is wrong with it.
    func treeArrayChange<Root, Value>(at keyPath: WritableKeyPath<Root, Value>, forKey key: Key) throws -> (any ReversionNode<Root>)? {
        guard case let .json(object) = reader, let index = object.valueIndex(AnyChangeKey(key)),
              object.document.values[index].kind == .object else { return nil }
        let child = JSONObjectReader<AnyChangeKey>(document: object.document, object: index, path: object.link(AnyChangeKey(key)))
        // The kind first: most children are not trees, and this costs less than the cast.
        guard let kindIndex = child.valueIndex(AnyChangeKey(NodeCodingKey.kind)), object.document.nodeKind(at: kindIndex) == .tree,
              let treeType = treeArrayChangeDecoding(Value.self) else { return nil }
        try DecodedNode<Value>.checkDepth(child.path?.depth ?? 0, codingPath: child.codingPath)
        return try treeType.treeArrayChange(at: keyPath, from: ChangeFields(.json(child)))
    }
}

/// `type` as a tree array of decodable elements, or `nil`: the cast, made once per type (a
/// conditional conformance's cast costs about a thousand instructions, every step).
private func treeArrayChangeDecoding(_ type: Any.Type) -> (any TreeArrayChangeDecoding.Type)? {
    treeArrayChangeDecodingTypes.entry(for: type) { TreeArrayChangeDecodingType(type: type as? any TreeArrayChangeDecoding.Type) }.type
}

/// A type's answer to ``treeArrayChangeDecoding(_:)``.
private struct TreeArrayChangeDecodingType: @unchecked Sendable {
    // Sound to share: a metatype is immutable, and the protocol's requirements are static
    // functions that keep no state.
    let type: (any TreeArrayChangeDecoding.Type)?
}

/// Per type: its answer to ``treeArrayChangeDecoding(_:)``.
private let treeArrayChangeDecodingTypes = TypeMemo<TreeArrayChangeDecodingType>()

/// Opens a tree array type found at run time, to reach its element type.
protocol TreeArrayChangeDecoding {
    static func treeArrayChange<Root>(as root: Root.Type, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>

    /// The change read at `keyPath`, where `Value` is this type: what ``treeArrayChange(as:from:)``
    /// reads, re-rooted at `keyPath`.
    static func treeArrayChange<Root, Value>(
        at keyPath: WritableKeyPath<Root, Value>, from container: ChangeFields<NodeCodingKey>
    ) throws -> any ReversionNode<Root>
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

    static func treeArrayChange<Root, Value>(
        at keyPath: WritableKeyPath<Root, Value>, from container: ChangeFields<NodeCodingKey>
    ) throws -> any ReversionNode<Root> {
        precondition(Value.self == Self.self, "\(Value.self) is not \(Self.self)")
        // The same type: a key path to `Value` is one to `Self`.
        let path = unsafeDowncast(keyPath, to: WritableKeyPath<Root, Self>.self)
        let content = try IdentifiedChangeContent<Element>(from: container, at: "\\\(Self.self).self")
        // As `rerooted(at:)` makes it: no key path when it is the identity.
        return TreeArrayChangeNode<Root, Element>(
            at: isSelfKeyPath(path) ? nil : path, edits: IdentifiedArrayEdits(content.edits), structure: content.structure,
            oldCount: content.oldCount, newCount: content.newCount
        )
    }
}
