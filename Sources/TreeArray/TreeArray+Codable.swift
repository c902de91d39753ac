extension TreeArray: Encodable where Element: Encodable {

    /// Encodes the elements as an unkeyed container, exactly as an `Array` of them encodes,
    /// so a stored array can be read back as a tree and the other way round.
    ///
    /// - Complexity: O(*n*).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try forEachChunk { chunk in
            for element in chunk {
                try container.encode(element)
            }
        }
    }
}

extension TreeArray: Decodable where Element: Decodable {

    /// Decodes the elements from an unkeyed container, as an `Array` of them decodes.
    ///
    /// - Complexity: O(*n*).
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var elements = ContiguousArray<Element>()
        if let count = container.count { elements.reserveCapacity(count) }
        while !container.isAtEnd {
            elements.append(try container.decode(Element.self))
        }
        self.init(elements)
    }
}
