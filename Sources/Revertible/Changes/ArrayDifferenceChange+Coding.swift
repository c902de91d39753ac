/// The keys of a saved array position: an index and, when stored, the element there.
enum PositionCodingKey: String, CodingKey {
    case index = "i"
    case element = "e"
    case movedFrom = "m"
    case id
}

extension ArrayDifferenceChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.diff, forKey: .kind)
        let location = try container.encodeKeyPath(keyPath)
        try Self.encode(removals, into: &container, forKey: .removed, at: location)
        try Self.encode(insertions, into: &container, forKey: .added, at: location)
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
    }

    private static func encode(
        _ positions: [(index: Int, element: Element)],
        into container: inout KeyedEncodingContainer<NodeCodingKey>,
        forKey key: NodeCodingKey,
        at location: String
    ) throws {
        var list = container.nestedUnkeyedContainer(forKey: key)
        for (index, element) in positions {
            var position = list.nestedContainer(keyedBy: PositionCodingKey.self)
            try position.encode(index, forKey: .index)
            try position.encodeValue(element, forKey: .element, at: location)
        }
    }
}

extension DecodedNode {

    /// Elements inserted into and removed from an array: the location must hold an array of
    /// `Decodable` elements.
    static func arrayDifferenceChange(from container: KeyedDecodingContainer<NodeCodingKey>) throws -> DecodedNode {
        let path = try container.decodeKeyPath(in: Root.self)
        guard let arrayType = path.valueType as? any ArrayDifferenceDecoding.Type else {
            throw container.corrupted("array elements were saved at \(path.name.text), which now holds \(path.valueType), not an array of Decodable elements", at: .path)
        }
        return DecodedNode(try arrayType.arrayDifferenceChange(at: path, from: container), at: path.name.components)
    }
}

/// Opens an array type found at run time, to reach its element type.
protocol ArrayDifferenceDecoding {
    static func arrayDifferenceChange<Root>(at path: ResolvedKeyPath, from container: KeyedDecodingContainer<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Array: ArrayDifferenceDecoding where Element: Decodable & Equatable {

    /// Indices must ascend strictly within their version, and both versions must keep the
    /// same number of unchanged elements: what rebuilding the array relies on.
    static func arrayDifferenceChange<Root>(at path: ResolvedKeyPath, from container: KeyedDecodingContainer<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let keyPath = try container.writable(path, to: Self.self) as WritableKeyPath<Root, Self>
        let removals = try decodePositions(from: container, forKey: .removed, at: path.name.text)
        let insertions = try decodePositions(from: container, forKey: .added, at: path.name.text)
        let oldCount = try container.decodeCount(forKey: .oldCount)
        let newCount = try container.decodeCount(forKey: .newCount)
        guard areAscending(removals.map(\.index), below: oldCount), areAscending(insertions.map(\.index), below: newCount),
              oldCount - removals.count == newCount - insertions.count else {
            throw container.corrupted("the saved positions of \(path.name.text) are out of order, out of range, or disagree with the counts", at: .removed)
        }
        return ArrayDifferenceChange(at: keyPath, removals: removals, insertions: insertions, oldCount: oldCount, newCount: newCount)
    }

    private static func decodePositions(
        from container: KeyedDecodingContainer<NodeCodingKey>,
        forKey key: NodeCodingKey,
        at location: String
    ) throws -> [(index: Int, element: Element)] {
        var list = try container.nestedUnkeyedContainer(forKey: key)
        var positions: [(index: Int, element: Element)] = []
        while !list.isAtEnd {
            let position = try list.nestedContainer(keyedBy: PositionCodingKey.self)
            positions.append((try position.decodeCount(forKey: .index), try position.decodeValue(Element.self, forKey: .element, at: location)))
        }
        return positions
    }
}

/// Whether `indices` ascend strictly from `0` up to below `count`.
func areAscending(_ indices: [Int], below count: Int) -> Bool {
    var previous = -1
    for index in indices {
        guard index > previous, index < count else { return false }
        previous = index
    }
    return true
}
