/// Where one object of a saved change (a node, or an edit, entry or position inside one) is
/// read from: a parsed JSON text directly, for `HistoryArchive(json:)`, which skips
/// `Codable`'s boxed containers; or a `Decoder`, for `Reversion`'s `Decodable` conformance,
/// whatever the decoder (and what the direct reading is tested against).
///
/// Each kind's reading is written once, over ``ChangeFields``, so both ways read the same
/// fields in the same order and refuse the same content with the same errors at the same
/// coding paths. An enum rather than a protocol: code generic over the reader ran
/// unspecialized, inside code generic over the user's types, and cost more than it saved.
enum ChangeReader {
    case json(JSONObjectReader<AnyChangeKey>)
    case decoder(DecoderContainer)

    var codingPath: [any CodingKey] {
        switch self {
        case let .json(object): object.codingPath
        case let .decoder(box): box.container.codingPath
        }
    }

    func contains(_ key: AnyChangeKey) -> Bool {
        switch self {
        case let .json(object): object.contains(key)
        case let .decoder(box): box.container.contains(key)
        }
    }

    /// The value under `key`, through its own `Decodable` conformance (or, from JSON, as the
    /// document reads the common leaf types itself, to the same value).
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: AnyChangeKey) throws -> Value {
        switch self {
        case let .json(object): try object.decode(Value.self, key)
        case let .decoder(box): try box.container.decode(Value.self, forKey: key)
        }
    }

    func string(forKey key: AnyChangeKey) throws -> String {
        switch self {
        case let .json(object): try object.string(key)
        case let .decoder(box): try box.container.decode(String.self, forKey: key)
        }
    }

    func integer(forKey key: AnyChangeKey) throws -> Int {
        switch self {
        case let .json(object): try object.integer(Int.self, key)
        case let .decoder(box): try box.container.decode(Int.self, forKey: key)
        }
    }

    /// The `Bool` under `key`, or `nil` when it is absent or `null`.
    func boolIfPresent(forKey key: AnyChangeKey) throws -> Bool? {
        switch self {
        case let .json(object): try object.boolIfPresent(key)
        case let .decoder(box): try box.container.decodeIfPresent(Bool.self, forKey: key)
        }
    }

    /// The object under `key`, which must be there.
    func object(forKey key: AnyChangeKey) throws -> ChangeReader {
        switch self {
        case let .json(object): .json(try object.object(key, keyedBy: AnyChangeKey.self))
        case let .decoder(box): .decoder(DecoderContainer(try box.container.nestedContainer(keyedBy: AnyChangeKey.self, forKey: key)))
        }
    }

    /// The array of objects under `key`, which must be there.
    func list(forKey key: AnyChangeKey) throws -> ChangeListReader {
        switch self {
        case let .json(object): .json(try object.array(key))
        case let .decoder(box): .decoder(try box.container.nestedUnkeyedContainer(forKey: key))
        }
    }

    /// The change under `key`, a change of `Root`.
    func node<Root>(_ root: Root.Type, forKey key: AnyChangeKey) throws -> DecodedNode<Root> {
        switch self {
        case let .json(object):
            try DecodedNode(json: object.document, at: object.required(key), path: object.link(key))
        case let .decoder(box):
            try box.container.decode(DecodedNode<Root>.self, forKey: key)
        }
    }

    /// The changes of the array under `key`, changes of `Root`.
    func nodes<Root>(_ root: Root.Type, forKey key: AnyChangeKey) throws -> [DecodedNode<Root>] {
        switch self {
        case let .json(object):
            var list = try object.array(key)
            var nodes: [DecodedNode<Root>] = []
            nodes.reserveCapacity(list.count)
            while !list.isAtEnd {
                let (index, path) = list.next()
                nodes.append(try DecodedNode(json: object.document, at: index, path: path))
            }
            return nodes
        case let .decoder(box):
            return try box.container.decode([DecodedNode<Root>].self, forKey: key)
        }
    }
}

/// A `Decoder`'s keyed container, boxed: `KeyedDecodingContainer` is the standard library's,
/// whose layout is not known when this is compiled, so an enum holding it copied itself through
/// the runtime (`swift_getEnumCaseMultiPayload`), which cost the direct reading too.
final class DecoderContainer {
    let container: KeyedDecodingContainer<AnyChangeKey>

    init(_ container: KeyedDecodingContainer<AnyChangeKey>) {
        self.container = container
    }
}

/// An array of a saved change's objects, read one object at a time (see ``ChangeReader``).
enum ChangeListReader {
    case json(JSONArrayReader)
    case decoder(any UnkeyedDecodingContainer)

    var isAtEnd: Bool {
        switch self {
        case let .json(list): list.isAtEnd
        case let .decoder(list): list.isAtEnd
        }
    }

    /// The next object; moves past it. Not at the end.
    mutating func nextObject() throws -> ChangeReader {
        switch self {
        case var .json(list):
            let object = try list.nextObject(keyedBy: AnyChangeKey.self)
            self = .json(list)
            return .json(object)
        case var .decoder(list):
            let object = try list.nestedContainer(keyedBy: AnyChangeKey.self)
            self = .decoder(list)
            return .decoder(DecoderContainer(object))
        }
    }
}

extension DecodedNode {

    /// The change at `index` of a parsed JSON text, read as ``init(from:)`` reads it: its
    /// depth checked first, then that it is an object, then its kind's fields.
    init(json document: JSONDocument, at index: Int, path: JSONCodingPath?) throws {
        try Self.checkDepth(path?.depth ?? 0, codingPath: JSONCodingPath.array(path))
        self = try Self.read(from: ChangeFields(.json(JSONObjectReader(document, at: index, path: path))))
    }
}
