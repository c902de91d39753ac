/// The keys of a saved dictionary entry.
private enum EntryCodingKey: String, CodingKey {
    case key
    case inserted = "i"
    case removed = "r"
    case updated = "u"
}

extension DictionaryChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        let location = try container.encodeKind(.dict, at: keyPath)
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
    static func dictionaryChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let (path, dictionaryType) = try container.decodeLocation(in: Root.self, holding: (any DictionaryChangeDecoding.Type).self) {
            "dictionary entries were saved at \($0.name.text), which now holds \($0.valueType), not a dictionary of Decodable keys and values"
        }
        return DecodedNode(try dictionaryType.dictionaryChange(at: path, from: container), at: path.name.components)
    }
}

/// Opens a dictionary type found at run time, to reach its key and value types.
protocol DictionaryChangeDecoding {
    static func dictionaryChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root>
}

extension Dictionary: DictionaryChangeDecoding where Key: Decodable, Value: Decodable & Equatable {

    /// Each key appears once (applying writes each entry after checking all of them, so a
    /// repeated key could find its entry gone), and the counts must agree with the inserts
    /// and removals.
    static func dictionaryChange<Root>(at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>) throws -> any ReversionNode<Root> {
        let keyPath = try container.writable(path, to: Self.self) as WritableKeyPath<Root, Self>
        let location = path.name.text
        var keys = Set<Key>()
        var balance = 0
        let changes = try container.objects(forKey: .child, keyedBy: EntryCodingKey.self) { entry -> (key: Key, change: DictionaryEntryChange<Value>) in
            let key = try entry.decodeValue(Key.self, forKey: .key, at: location)
            guard keys.insert(key).inserted else {
                throw entry.corrupted("the key \(key) of \(location) is saved twice", at: .key)
            }
            if entry.contains(.inserted) {
                balance += 1
                return (key, .inserted(try entry.decodeValue(Value.self, forKey: .inserted, at: location)))
            } else if entry.contains(.removed) {
                balance -= 1
                return (key, .removed(try entry.decodeValue(Value.self, forKey: .removed, at: location)))
            }
            return (key, .updated(try entry.node(Value.self, forKey: .updated).node))
        }
        let oldCount = try container.decodeCount(forKey: .oldCount)
        let newCount = try container.decodeCount(forKey: .newCount)
        guard newCount - oldCount == balance else {
            throw container.corrupted("the saved entries of \(location) do not agree with the counts", at: .newCount)
        }
        return DictionaryChange(at: keyPath, changes: changes, oldCount: oldCount, newCount: newCount)
    }
}
