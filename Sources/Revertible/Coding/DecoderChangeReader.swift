/// Reads a saved change's objects through a `Decoder`: what `Reversion`'s `Decodable`
/// conformance reads with, whatever the decoder (and what the direct reading of JSON is
/// tested against).
struct DecoderChangeReader: ChangeReader {
    let container: KeyedDecodingContainer<AnyChangeKey>

    init(_ container: KeyedDecodingContainer<AnyChangeKey>) {
        self.container = container
    }

    var codingPath: [any CodingKey] { container.codingPath }

    func contains(_ key: some CodingKey) -> Bool {
        container.contains(AnyChangeKey(key))
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: some CodingKey) throws -> Value {
        try container.decode(Value.self, forKey: AnyChangeKey(key))
    }

    func string(forKey key: some CodingKey) throws -> String {
        try container.decode(String.self, forKey: AnyChangeKey(key))
    }

    func integer(forKey key: some CodingKey) throws -> Int {
        try container.decode(Int.self, forKey: AnyChangeKey(key))
    }

    func boolIfPresent(forKey key: some CodingKey) throws -> Bool? {
        try container.decodeIfPresent(Bool.self, forKey: AnyChangeKey(key))
    }

    func object(forKey key: some CodingKey) throws -> Self {
        Self(try container.nestedContainer(keyedBy: AnyChangeKey.self, forKey: AnyChangeKey(key)))
    }

    func objects<Element>(forKey key: some CodingKey, _ read: (Self) throws -> Element) throws -> [Element] {
        var list = try container.nestedUnkeyedContainer(forKey: AnyChangeKey(key))
        var elements: [Element] = []
        while !list.isAtEnd {
            elements.append(try read(Self(try list.nestedContainer(keyedBy: AnyChangeKey.self))))
        }
        return elements
    }

    func node<Root>(_ root: Root.Type, forKey key: some CodingKey) throws -> DecodedNode<Root> {
        try container.decode(DecodedNode<Root>.self, forKey: AnyChangeKey(key))
    }

    func nodes<Root>(_ root: Root.Type, forKey key: some CodingKey) throws -> [DecodedNode<Root>] {
        try container.decode([DecodedNode<Root>].self, forKey: AnyChangeKey(key))
    }
}

/// Any key of a saved change's objects, so that one container type reads them all: it reads
/// and describes itself as the key it stands for, so errors name that key.
struct AnyChangeKey: CodingKey, CustomStringConvertible, CustomDebugStringConvertible {
    let base: any CodingKey

    init(_ key: some CodingKey) {
        base = key
    }

    init?(stringValue: String) {
        base = JSONMemberKey(stringValue)
    }

    init?(intValue: Int) {
        base = JSONIndexKey(index: intValue)
    }

    var stringValue: String { base.stringValue }
    var intValue: Int? { base.intValue }
    var description: String { base.description }
    var debugDescription: String { base.debugDescription }
}
