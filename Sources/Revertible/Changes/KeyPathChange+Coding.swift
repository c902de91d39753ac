extension KeyPathChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encodeKind(.path, at: keyPath)
        try container.encode(EncodedNode(child), forKey: .child)
    }
}

extension DecodedNode {

    /// A change inside a property: the child is read as a change of the property's type.
    static func keyPathChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let path = try container.decodeKeyPath(in: Root.self)
        func make<Value>(_: Value.Type) throws -> DecodedNode {
            let keyPath = try container.writable(path, to: Value.self) as WritableKeyPath<Root, Value>
            let child = try container.node(Value.self, forKey: .child)
            // Held as a recorded one is, where that is saved alike (a tree array's change).
            if child.node is any SavedAlikeRerooted, let node = child.node.rerooted(at: keyPath) {
                return DecodedNode(node, at: path.name.components)
            }
            return DecodedNode(KeyPathChange(at: keyPath, child: child.node), at: path.name.components)
        }
        return try make(path.valueType)
    }
}

/// A node that, re-rooted at a key path (see `ReversionNode.rerooted(at:)`), is saved exactly
/// as a ``KeyPathChange`` at that key path around it: read back, such a change is re-rooted,
/// so a decoded history holds the same nodes as a recorded one and writes the same bytes.
protocol SavedAlikeRerooted {}
