extension IgnoringValueChange: EncodableReversionNode {

    /// The ignored properties are not written: they are the type's own, read again from its
    /// `addReversions(into:)` when the change is read back.
    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.whole, forKey: .kind)
        let location = "\\\(Root.self).self"
        try container.encodeValue(old, forKey: .old, at: location)
        try container.encodeValue(new, forKey: .new, at: location)
    }
}

extension DecodedNode {

    /// The whole value of a type that ignores some properties: `Root` must be a `Decodable`
    /// ``Versionable`` type, and the properties it ignores now are the ones left alone.
    static func ignoringValueChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        guard let rootType = Root.self as? any (Versionable & Decodable).Type else {
            throw container.corrupted("a whole \(Root.self) was saved, but \(Root.self) is not a Decodable Versionable type", at: .kind)
        }
        func make<Value: Versionable & Decodable>(_: Value.Type) throws -> DecodedNode {
            let location = "\\\(Value.self).self"
            let (old, new) = try container.decodeOldAndNew(Value.self, at: location)
            guard let node = IgnoringValueChange(from: old, to: new, ignoring: new.ignoredProperties()) as? any ReversionNode<Root> else {
                throw container.corrupted("\(Value.self) is not \(Root.self)", at: .kind)
            }
            return DecodedNode(node)
        }
        return try make(rootType)
    }
}
