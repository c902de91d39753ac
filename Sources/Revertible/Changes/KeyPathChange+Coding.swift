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
            // A tree array's change is held as a recorded one is: re-rooted at the key path,
            // which saves it exactly as a key path's change around it. From JSON it is read
            // there directly; from a `Decoder`, read and then re-rooted.
            if let node = try container.treeArrayChange(at: keyPath, forKey: .child) {
                return DecodedNode(node, at: path.name.components, isTreeArrayChange: true)
            }
            let child = try container.node(Value.self, forKey: .child)
            if child.isTreeArrayChange, let node = child.node.rerooted(at: keyPath) {
                return DecodedNode(node, at: path.name.components, isTreeArrayChange: true)
            }
            return DecodedNode(KeyPathChange(at: keyPath, child: child.node), at: path.name.components)
        }
        return try make(path.valueType)
    }
}
