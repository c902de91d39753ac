extension InvertedChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.invert, forKey: .kind)
        try container.encode(EncodedNode(base), forKey: .child)
    }
}

extension DecodedNode {

    /// A change applied the other way round; it writes where its base writes.
    static func invertedChange(from container: KeyedDecodingContainer<NodeCodingKey>) throws -> DecodedNode {
        let base = try container.decode(DecodedNode.self, forKey: .child)
        return DecodedNode(InvertedChange(base.node), at: base.location)
    }
}
