/// The keys of a saved dictionary entry.
private enum EntryCodingKey: String, CodingKey {
    case key
    case inserted = "i"
    case removed = "r"
    case updated = "u"
}

extension DictionaryChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.dict, forKey: .kind)
        let location = try container.encodeKeyPath(keyPath)
        var list = container.nestedUnkeyedContainer(forKey: .child)
        for (key, change) in changes {
            var entry = list.nestedContainer(keyedBy: EntryCodingKey.self)
            try entry.encodeValue(key, forKey: .key, at: location)
            switch change {
            case let .inserted(value): try entry.encodeValue(value, forKey: .inserted, at: location)
            case let .removed(value): try entry.encodeValue(value, forKey: .removed, at: location)
            case let .updated(node): try entry.encode(EncodedNode(node), forKey: .updated)
            }
        }
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
    }
}

extension DecodedNode {

    /// Entries inserted, removed and updated: the location must hold a dictionary whose keys
    /// and values are `Decodable`.
    static func dictionaryChange(from container: KeyedDecodingContainer<NodeCodingKey>) throws -> DecodedNode {
        let path = try container.decodeKeyPath(in: Root.self)
        guard let dictionaryType = path.valueType as? any DictionaryChangeDecoding.Type else {
            throw container.corrupted("dictionary entries were saved at \(path.name.text), which now holds \(path.valueType), not a dictionary of Decodable keys and values", at: .path)
        }
        return DecodedNode(try dictionaryType.dictionaryChange(at: path, from: container), at: path.name.components)
    }
}

/// Opens a dictionary type found at run time, to reach its key and value types.
protocol DictionaryChangeDecoding {
    static func dictionaryChange<Root>(at path: ResolvedKeyPath, from container: KeyedDecodingContainer<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Dictionary: DictionaryChangeDecoding where Key: Decodable, Value: Decodable & Equatable {

    /// Each key appears once (applying writes each entry after checking all of them, so a
    /// repeated key could find its entry gone), and the counts must agree with the inserts
    /// and removals.
    static func dictionaryChange<Root>(at path: ResolvedKeyPath, from container: KeyedDecodingContainer<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let keyPath = try container.writable(path, to: Self.self) as WritableKeyPath<Root, Self>
        let location = path.name.text
        var list = try container.nestedUnkeyedContainer(forKey: .child)
        var changes: [(key: Key, change: DictionaryEntryChange<Value>)] = []
        var keys = Set<Key>()
        var balance = 0
        while !list.isAtEnd {
            let entry = try list.nestedContainer(keyedBy: EntryCodingKey.self)
            let key = try entry.decodeValue(Key.self, forKey: .key, at: location)
            guard keys.insert(key).inserted else {
                throw entry.corrupted("the key \(key) of \(location) is saved twice", at: .key)
            }
            if entry.contains(.inserted) {
                changes.append((key, .inserted(try entry.decodeValue(Value.self, forKey: .inserted, at: location))))
                balance += 1
            } else if entry.contains(.removed) {
                changes.append((key, .removed(try entry.decodeValue(Value.self, forKey: .removed, at: location))))
                balance -= 1
            } else {
                changes.append((key, .updated(try entry.decode(DecodedNode<Value>.self, forKey: .updated).node)))
            }
        }
        let oldCount = try container.decodeCount(forKey: .oldCount)
        let newCount = try container.decodeCount(forKey: .newCount)
        guard newCount - oldCount == balance else {
            throw container.corrupted("the saved entries of \(location) do not agree with the counts", at: .newCount)
        }
        return DictionaryChange(at: keyPath, changes: changes, oldCount: oldCount, newCount: newCount)
    }
}
