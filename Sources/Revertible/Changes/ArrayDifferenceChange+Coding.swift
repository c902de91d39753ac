/// The keys of a saved array position: an index and, when stored, the element there.
enum PositionCodingKey: String, CodingKey {
    case index = "i"
    case element = "e"
    case movedFrom = "m"
    case id
}

extension ArrayDifferenceChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        let location = try container.encodeKind(.diff, at: keyPath)
        for (positions, key) in [(removals, NodeCodingKey.removed), (insertions, .added)] {
            try container.encodePositions(positions, forKey: key, index: \.index) { position, entry in
                try entry.encodeValue(position.element, forKey: .element, at: location)
            }
        }
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
    }
}

extension KeyedEncodingContainer where Key == NodeCodingKey {

    /// Writes `positions` under `key` as a list of array positions, each its index and then
    /// what `encodeRest` writes beside it: the one layout of an array change's positions
    /// (this one's and an identified array's), so the two cannot drift apart.
    mutating func encodePositions<Position>(
        _ positions: [Position],
        forKey key: NodeCodingKey,
        index: (Position) -> Int,
        encodeRest: (Position, inout KeyedEncodingContainer<PositionCodingKey>) throws -> Void
    ) throws {
        var list = nestedUnkeyedContainer(forKey: key)
        for position in positions {
            var entry = list.nestedContainer(keyedBy: PositionCodingKey.self)
            try entry.encode(index(position), forKey: .index)
            try encodeRest(position, &entry)
        }
    }
}

extension ChangeFields where Key == NodeCodingKey {

    /// Reads the list of array positions under `key` that ``KeyedEncodingContainer/encodePositions(_:forKey:index:encodeRest:)``
    /// wrote: `makePosition` gets each one's index and its entry, to read the rest from.
    func decodePositions<Position>(
        forKey key: NodeCodingKey,
        makePosition: (_ index: Int, _ entry: ChangeFields<PositionCodingKey>) throws -> Position
    ) throws -> [Position] {
        try objects(forKey: key, keyedBy: PositionCodingKey.self) { entry in
            try makePosition(try entry.decodeCount(forKey: .index), entry)
        }
    }
}

extension DecodedNode {

    /// Elements inserted into and removed from an array: the location must hold an array of
    /// `Decodable` elements.
    static func arrayDifferenceChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let (path, arrayType) = try container.decodeLocation(in: Root.self, holding: (any ArrayDifferenceDecoding.Type).self) {
            "array elements were saved at \($0.name.text), which now holds \($0.valueType), not an array of Decodable elements"
        }
        return DecodedNode(try arrayType.arrayDifferenceChange(at: path, from: container), at: path.name.components)
    }
}

/// Opens an array type found at run time, to reach its element type.
protocol ArrayDifferenceDecoding {
    static func arrayDifferenceChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Array: ArrayDifferenceDecoding where Element: Decodable & Equatable {

    /// Indices must ascend strictly within their version, and both versions must keep the
    /// same number of unchanged elements: what rebuilding the array relies on.
    static func arrayDifferenceChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let keyPath = try container.writable(path, to: Self.self) as WritableKeyPath<Root, Self>
        let removals = try decodePositions(from: container, forKey: .removed, at: path.name.text)
        let insertions = try decodePositions(from: container, forKey: .added, at: path.name.text)
        let oldCount = try container.decodeCount(forKey: .oldCount)
        let newCount = try container.decodeCount(forKey: .newCount)
        guard areAscending(removals.map { $0.index }, below: oldCount), areAscending(insertions.map { $0.index }, below: newCount),
              oldCount - removals.count == newCount - insertions.count else {
            throw container.corrupted("the saved positions of \(path.name.text) are out of order, out of range, or disagree with the counts", at: .removed)
        }
        return ArrayDifferenceChange(at: keyPath, removals: removals, insertions: insertions, oldCount: oldCount, newCount: newCount)
    }

    private static func decodePositions(
        from container: ChangeFields<NodeCodingKey>,
        forKey key: NodeCodingKey,
        at location: String
    ) throws -> [(index: Int, element: Element)] {
        try container.decodePositions(forKey: key) { index, entry in
            (index, try entry.decodeValue(Element.self, forKey: .element, at: location))
        }
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
