extension InvertedChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encodeKind(.invert, around: base)
    }
}

extension DecodedNode {

    /// A change applied the other way round; it writes where its base writes.
    static func invertedChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let base = try container.node(Root.self, forKey: .child)
        return DecodedNode(InvertedChange(base.node), at: base.location)
    }
}
