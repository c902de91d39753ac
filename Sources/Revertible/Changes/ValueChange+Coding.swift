extension ValueChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        let location = try container.encodeKind(.value, at: keyPath)
        try container.encodeValue(old, forKey: .old, at: location)
        try container.encodeValue(new, forKey: .new, at: location)
    }
}

/// What a whole value must be to be read back.
private typealias DecodableValue = Decodable & Equatable

extension DecodedNode {

    /// A whole value replaced: the value type is the location's, which must be `Decodable`.
    static func valueChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let (path, valueType) = try container.decodeLocation(in: Root.self, holding: (any DecodableValue.Type).self) {
            "the value at \($0.name.text), a \($0.valueType), is not Decodable"
        }
        func make<Value: Decodable & Equatable>(_: Value.Type) throws -> DecodedNode {
            let keyPath = try container.writable(path, to: Value.self) as WritableKeyPath<Root, Value>
            let (old, new) = try container.decodeOldAndNew(Value.self, at: path.name.text)
            return DecodedNode(ValueChange(at: keyPath, from: old, to: new), at: path.name.components)
        }
        return try make(valueType)
    }
}
