extension SetChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        let location = try container.encodeKind(.set, at: keyPath)
        try container.encodeValues(added, forKey: .added, at: location)
        try container.encodeValues(removed, forKey: .removed, at: location)
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
    }
}

extension DecodedNode {

    /// Members added to and removed from a set: the location must hold a set of `Decodable`
    /// members.
    static func setChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let (path, setType) = try container.decodeLocation(in: Root.self, holding: (any SetChangeDecoding.Type).self) {
            "set members were saved at \($0.name.text), which now holds \($0.valueType), not a set of Decodable members"
        }
        return DecodedNode(try setType.setChange(at: path, from: container), at: path.name.components)
    }
}

/// Opens a set type found at run time, to reach its member type.
protocol SetChangeDecoding {
    static func setChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Set: SetChangeDecoding where Element: Decodable {

    /// Members must be distinct, added and removed disjoint, and the counts must agree.
    static func setChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let keyPath = try container.writable(path, to: Self.self) as WritableKeyPath<Root, Self>
        let added = try container.decodeValue([Element].self, forKey: .added, at: path.name.text)
        let removed = try container.decodeValue([Element].self, forKey: .removed, at: path.name.text)
        let oldCount = try container.decodeCount(forKey: .oldCount)
        let newCount = try container.decodeCount(forKey: .newCount)
        let addedSet = Set(added)
        let removedSet = Set(removed)
        guard addedSet.count == added.count, removedSet.count == removed.count, addedSet.isDisjoint(with: removedSet),
              removed.count <= oldCount, added.count <= newCount, oldCount - removed.count == newCount - added.count else {
            throw container.corrupted("the saved members of \(path.name.text) are repeated or do not agree with the counts", at: .added)
        }
        return SetChange(at: keyPath, added: added, removed: removed, oldCount: oldCount, newCount: newCount)
    }
}
