extension KeyPathChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.path, forKey: .kind)
        try container.encodeKeyPath(keyPath)
        try container.encode(EncodedNode(child), forKey: .child)
    }
}

extension DecodedNode {

    /// A change inside a property: the child is read as a change of the property's type.
    static func keyPathChange(from container: KeyedDecodingContainer<NodeCodingKey>) throws -> DecodedNode {
        let path = try container.decodeKeyPath(in: Root.self)
        func make<Value>(_: Value.Type) throws -> DecodedNode {
            let keyPath = try container.writable(path, to: Value.self) as WritableKeyPath<Root, Value>
            let child = try container.decode(DecodedNode<Value>.self, forKey: .child)
            return DecodedNode(KeyPathChange(at: keyPath, child: child.node), at: path.name.components)
        }
        return try make(path.valueType)
    }
}
