extension TextBufferChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.text, forKey: .kind)
        try container.encode(offset, forKey: .offset)
        try container.encode(oldPart, forKey: .old)
        try container.encode(newPart, forKey: .new)
        try container.encode(newCount, forKey: .newCount)
        if let context {
            try container.encode(context.before, forKey: .before)
            try container.encode(context.after, forKey: .after)
            try container.encode(fingerprintText(context.fingerprint), forKey: .fingerprint)
        }
    }
}

extension DecodedNode {

    /// A run of text replaced in a ``TextBuffer``: `Root` must be `TextBuffer`, and the run
    /// must lie inside both versions.
    static func textBufferChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let offset = try container.decodeCount(forKey: .offset)
        let oldPart = try container.decodeString(forKey: .old)
        let newPart = try container.decodeString(forKey: .new)
        let newCount = try container.decodeCount(forKey: .newCount)
        guard offset <= newCount - newPart.utf8.count else {
            throw container.corrupted("the replaced run of text does not fit the saved length", at: .offset)
        }
        let context = try container.decodeRunContext(String.self, offset: offset, run: newPart.utf8.count, count: newCount, at: "the text")
        let change = TextBufferChange.make(offset: offset, oldPart: oldPart, newPart: newPart, newCount: newCount, context: context)
        guard let node = reversionNode(change, as: Root.self) else {
            throw container.corrupted("a text buffer's changes were saved where \(Root.self) now is, not a TextBuffer", at: .kind)
        }
        return DecodedNode(node)
    }
}
