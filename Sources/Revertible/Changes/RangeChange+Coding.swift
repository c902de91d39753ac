extension RangeChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.range, forKey: .kind)
        let location = try container.encodeKeyPath(keyPath)
        try container.encode(offset, forKey: .offset)
        try container.encodeValue(oldPart, forKey: .old, at: location)
        try container.encodeValue(newPart, forKey: .new, at: location)
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
    }
}

extension DecodedNode {

    /// A run of bytes replaced in a `String` or `Data`. The run must lie inside both versions
    /// and leave the same number of bytes after it in each, so checking a value of the
    /// expected length never reads past its end.
    static func rangeChange(from container: KeyedDecodingContainer<NodeCodingKey>) throws -> DecodedNode {
        let path = try container.decodeKeyPath(in: Root.self)
        guard let valueType = path.valueType as? any (ByteSpliceable & Decodable).Type else {
            throw container.corrupted("a run of bytes was saved at \(path.name.text), which now holds \(path.valueType), not a String or Data", at: .path)
        }
        func make<Value: ByteSpliceable & Decodable>(_: Value.Type) throws -> DecodedNode {
            let keyPath = try container.writable(path, to: Value.self) as WritableKeyPath<Root, Value>
            let offset = try container.decodeCount(forKey: .offset)
            let oldPart = try container.decodeValue(Value.self, forKey: .old, at: path.name.text)
            let newPart = try container.decodeValue(Value.self, forKey: .new, at: path.name.text)
            let oldCount = try container.decodeCount(forKey: .oldCount)
            let newCount = try container.decodeCount(forKey: .newCount)
            guard offset <= oldCount - oldPart.byteCount, offset <= newCount - newPart.byteCount,
                  oldCount - oldPart.byteCount == newCount - newPart.byteCount else {
                throw container.corrupted("the replaced run at \(path.name.text) does not fit the saved lengths", at: .offset)
            }
            let change = RangeChange(at: keyPath, offset: offset, oldPart: oldPart, newPart: newPart, oldCount: oldCount, newCount: newCount)
            return DecodedNode(change, at: path.name.components)
        }
        return try make(valueType)
    }
}
