extension IdentifiedArrayChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        let location = try container.encodeKind(.ids, at: keyPath)
        try IdentifiedChangeContent(edits: edits, structure: structure, oldCount: oldCount, newCount: newCount)
            .encode(into: &container, at: location)
    }
}

extension DecodedNode {

    /// The changes of an array of identifiable values: the location must hold an array of
    /// `Decodable`, identifiable, versionable elements with `Decodable` ids.
    static func identifiedArrayChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let (path, arrayType) = try container.decodeLocation(in: Root.self, holding: (any IdentifiedArrayChangeDecoding.Type).self) {
            "identifiable elements were saved at \($0.name.text), which now holds \($0.valueType), not an array of Decodable, Identifiable, Versionable elements with Decodable ids"
        }
        return DecodedNode(try arrayType.identifiedArrayChange(at: path, from: container), at: path.name.components)
    }
}

/// Opens an array type found at run time, to reach its identifiable element type.
protocol IdentifiedArrayChangeDecoding {
    static func identifiedArrayChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Array: IdentifiedArrayChangeDecoding where Element: Identifiable & Versionable & Decodable, Element.ID: Decodable {

    static func identifiedArrayChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let keyPath = try container.writable(path, to: Self.self) as WritableKeyPath<Root, Self>
        let content = try IdentifiedChangeContent<Element>(from: container, at: path.name.text)
        return IdentifiedArrayChange(
            at: keyPath, edits: content.edits, structure: content.structure, oldCount: content.oldCount, newCount: content.newCount
        )
    }
}

/// The keys of a saved edit inside an element that kept its identity.
private enum EditCodingKey: String, CodingKey {
    case oldIndex = "o"
    case newIndex = "n"
    case id
    case change = "c"
}

/// What the changes of an identifiable array and of a ``TreeArray`` share, and how it is
/// saved: the edits by id, the positions that differ on each side, and both counts.
struct IdentifiedChangeContent<Element: Identifiable & Versionable> {
    let edits: [IdentifiedArrayEdit<Element>]
    let structure: IdentifiedArrayStructure<Element>?
    let oldCount: Int
    let newCount: Int

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>, at location: String) throws {
        var editList = container.nestedUnkeyedContainer(forKey: .edits)
        for edit in edits {
            var entry = editList.nestedContainer(keyedBy: EditCodingKey.self)
            try entry.encode(edit.oldIndex, forKey: .oldIndex)
            try entry.encode(edit.newIndex, forKey: .newIndex)
            try entry.encodeValue(edit.id, forKey: .id, at: location)
            try entry.encode(EncodedNode(edit.node), forKey: .change)
        }
        if let structure {
            var sides = container.nestedContainer(keyedBy: NodeCodingKey.self, forKey: .structure)
            for (side, key) in [(structure.old, NodeCodingKey.old), (structure.new, .new)] {
                try sides.encodePositions(side, forKey: key, index: \.index) { position, entry in
                    switch position.source {
                    case let .stored(element):
                        try entry.encodeValue(element, forKey: .element, at: location)
                    case let .moved(from, id):
                        try entry.encode(from, forKey: .movedFrom)
                        try entry.encodeValue(id, forKey: .id, at: location)
                    }
                }
            }
        }
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
    }
}

extension IdentifiedChangeContent where Element: Decodable, Element.ID: Decodable {

    /// Reads the content and checks everything checking and applying rely on.
    /// `location` names the array in errors; made only for one.
    init(from container: ChangeFields<NodeCodingKey>, at location: @autoclosure () -> String) throws {
        let edits = try container.objects(forKey: .edits, keyedBy: EditCodingKey.self) { entry in
            IdentifiedArrayEdit<Element>(
                oldIndex: try entry.decodeCount(forKey: .oldIndex),
                newIndex: try entry.decodeCount(forKey: .newIndex),
                id: try entry.decodeValue(Element.ID.self, forKey: .id, at: location()),
                node: try entry.node(Element.self, forKey: .change).node
            )
        }
        var structure: IdentifiedArrayStructure<Element>?
        if container.contains(.structure) {
            let sides = try container.object(forKey: .structure, keyedBy: NodeCodingKey.self)
            structure = IdentifiedArrayStructure(
                old: try Self.decodeSide(from: sides, forKey: .old, at: location()),
                new: try Self.decodeSide(from: sides, forKey: .new, at: location())
            )
        }
        self.init(
            edits: edits,
            structure: structure,
            oldCount: try container.decodeCount(forKey: .oldCount),
            newCount: try container.decodeCount(forKey: .newCount)
        )
        if let problem = inconsistency() {
            throw container.corrupted("the saved changes of \(location()) are inconsistent: \(problem)", at: .edits)
        }
    }

    private static func decodeSide(
        from container: ChangeFields<NodeCodingKey>,
        forKey key: NodeCodingKey,
        at location: @autoclosure () -> String
    ) throws -> [(index: Int, source: IdentifiedArraySource<Element>)] {
        try container.decodePositions(forKey: key) { index, entry in
            if entry.contains(.movedFrom) {
                let from = try entry.decodeCount(forKey: .movedFrom)
                return (index, .moved(from: from, id: try entry.decodeValue(Element.ID.self, forKey: .id, at: location())))
            }
            return (index, .stored(try entry.decodeValue(Element.self, forKey: .element, at: location())))
        }
    }
}

extension IdentifiedChangeContent {

    /// What is wrong with this content, or `nil` when checking and applying it are safe and
    /// mean what a comparison would have meant:
    ///
    /// - each side's positions ascend strictly within its version, and both versions keep the
    ///   same number of unchanged elements (what the rebuild relies on);
    /// - every move is recorded on both sides, pointing at each other, with one id;
    /// - every edit is at distinct positions in range, and either follows a move or sits
    ///   where the unchanged elements put it, so it edits the element it names.
    func inconsistency() -> String? {
        let oldSide = structure?.old ?? []
        let newSide = structure?.new ?? []
        let oldIndices = oldSide.map { $0.index }
        let newIndices = newSide.map { $0.index }
        guard areAscending(oldIndices, below: oldCount), areAscending(newIndices, below: newCount) else {
            return "positions out of order or out of range"
        }
        guard oldCount - oldSide.count == newCount - newSide.count else {
            return "the counts do not agree with the positions"
        }
        var moves = 0
        for (index, source) in newSide {
            guard case let .moved(from, id) = source else { continue }
            guard let partner = oldIndices.sortedPosition(of: from),
                  case let .moved(back, partnerID) = oldSide[partner].source, back == index, partnerID == id else {
                return "a move without its other end"
            }
            moves += 1
        }
        guard moves == oldSide.count(where: { if case .moved = $0.source { true } else { false } }) else {
            return "a move without its other end"
        }
        var editedOld = Set<Int>()
        var editedNew = Set<Int>()
        // One edit cannot repeat a position: the sets (two allocations) only for more.
        let mayRepeat = edits.count > 1
        for edit in edits {
            guard (0..<oldCount).contains(edit.oldIndex), (0..<newCount).contains(edit.newIndex),
                  !mayRepeat || editedOld.insert(edit.oldIndex).inserted, !mayRepeat || editedNew.insert(edit.newIndex).inserted else {
                return "an edit out of range or repeated"
            }
            if let position = newIndices.sortedPosition(of: edit.newIndex) {
                guard case let .moved(from, id) = newSide[position].source, from == edit.oldIndex, id == edit.id else {
                    return "an edit of an element that was inserted or removed"
                }
            } else {
                guard oldIndices.sortedPosition(of: edit.oldIndex) == nil,
                      edit.newIndex - newIndices.countBelow(edit.newIndex) == edit.oldIndex - oldIndices.countBelow(edit.oldIndex) else {
                    return "an edit whose positions do not match"
                }
            }
        }
        return nil
    }
}

extension Array where Element == Int {

    /// How many of these ascending values are below `value`.
    func countBelow(_ value: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where `value` is among these ascending values, if it is.
    func sortedPosition(of value: Int) -> Int? {
        let position = countBelow(value)
        return position < count && self[position] == value ? position : nil
    }
}
