extension ValueChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.value, forKey: .kind)
        let location = try container.encodeKeyPath(keyPath)
        try container.encodeValue(old, forKey: .old, at: location)
        try container.encodeValue(new, forKey: .new, at: location)
    }
}

extension DecodedNode {

    /// A whole value replaced: the value type is the location's, which must be `Decodable`.
    static func valueChange(from container: KeyedDecodingContainer<NodeCodingKey>) throws -> DecodedNode {
        let path = try container.decodeKeyPath(in: Root.self)
        guard let valueType = path.valueType as? any (Decodable & Equatable).Type else {
            throw container.corrupted("the value at \(path.name.text), a \(path.valueType), is not Decodable", at: .path)
        }
        func make<Value: Decodable & Equatable>(_: Value.Type) throws -> DecodedNode {
            let keyPath = try container.writable(path, to: Value.self) as WritableKeyPath<Root, Value>
            let old = try container.decodeValue(Value.self, forKey: .old, at: path.name.text)
            let new = try container.decodeValue(Value.self, forKey: .new, at: path.name.text)
            return DecodedNode(ValueChange(at: keyPath, from: old, to: new), at: path.name.components)
        }
        return try make(valueType)
    }
}
