extension OptionalChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encodeKind(.some, around: child)
    }
}

extension DecodedNode {

    /// A change inside an optional that stays non-`nil`: `Root` must be an optional, and the
    /// child is read as a change of the wrapped type.
    static func optionalChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        guard let optional = Root.self as? any OptionalChangeDecoding.Type else {
            throw container.corrupted("a change inside an optional was saved where \(Root.self), not an optional, now is", at: .kind)
        }
        return DecodedNode(try optional.optionalChange(as: Root.self, from: container))
    }
}

/// Opens an optional type found at run time, to reach its wrapped type.
protocol OptionalChangeDecoding {
    static func optionalChange<Root>(as root: Root.Type, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Optional: OptionalChangeDecoding {

    static func optionalChange<Root>(as root: Root.Type, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let child = try container.node(Wrapped.self, forKey: .child)
        guard let node = OptionalChange(wrapping: child.node) as? any ReversionNode<Root> else {
            throw container.corrupted("\(Root.self) is not \(Self.self)", at: .kind)
        }
        return node
    }
}
