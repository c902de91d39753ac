/// Reads a saved change's objects straight from a parsed ``JSONDocument``, as
/// ``JSONKeyedContainer`` reads them (the same values, the same errors at the same coding
/// paths), without `Decoder`: only the user's values of types other than the common leaf
/// types go through ``JSONDocumentDecoder``.
struct JSONChangeReader: ChangeReader {
    let document: JSONDocument
    /// The index of the object's value.
    let object: Int
    let path: JSONCodingPath?

    /// The object at `index`, refused as `container(keyedBy:)` refuses any other value.
    init(_ document: JSONDocument, at index: Int, path: JSONCodingPath?) throws {
        let fields = try JSONObjectReader<JSONMemberKey>(document, at: index, path: path)
        self.document = fields.document
        self.object = fields.object
        self.path = fields.path
    }

    /// The change at `index`, a change of `Root`, read as `DecodedNode.init(from:)` reads
    /// it: its depth checked before anything else.
    static func node<Root>(_ root: Root.Type, in document: JSONDocument, at index: Int, path: JSONCodingPath?) throws -> DecodedNode<Root> {
        try DecodedNode<Root>.checkDepth(path?.depth ?? 0, codingPath: JSONCodingPath.array(path))
        return try DecodedNode.read(from: ChangeFields(Self(document, at: index, path: path)))
    }

    /// The object, read by keys of `Key`.
    @inline(__always)
    private func keyed<Key: CodingKey>(_ key: Key) -> JSONObjectReader<Key> {
        JSONObjectReader(document: document, object: object, path: path)
    }

    var codingPath: [any CodingKey] { JSONCodingPath.array(path) }

    func contains(_ key: some CodingKey) -> Bool {
        keyed(key).contains(key)
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: some CodingKey) throws -> Value {
        try keyed(key).decode(Value.self, key)
    }

    func string(forKey key: some CodingKey) throws -> String {
        try keyed(key).string(key)
    }

    func integer(forKey key: some CodingKey) throws -> Int {
        try keyed(key).integer(Int.self, key)
    }

    func boolIfPresent(forKey key: some CodingKey) throws -> Bool? {
        try keyed(key).boolIfPresent(key)
    }

    func object(forKey key: some CodingKey) throws -> Self {
        let fields = keyed(key)
        return try Self(document, at: try fields.required(key), path: fields.link(key))
    }

    func objects<Element>(forKey key: some CodingKey, _ read: (Self) throws -> Element) throws -> [Element] {
        try elements(forKey: key) { index, path in try read(Self(document, at: index, path: path)) }
    }

    func node<Root>(_ root: Root.Type, forKey key: some CodingKey) throws -> DecodedNode<Root> {
        let fields = keyed(key)
        return try Self.node(Root.self, in: document, at: try fields.required(key), path: fields.link(key))
    }

    func nodes<Root>(_ root: Root.Type, forKey key: some CodingKey) throws -> [DecodedNode<Root>] {
        try elements(forKey: key) { index, path in try Self.node(Root.self, in: document, at: index, path: path) }
    }

    /// Each element of the array under `key`, read by `read` from its index and coding path.
    private func elements<Element>(
        forKey key: some CodingKey, _ read: (_ index: Int, _ path: JSONCodingPath) throws -> Element
    ) throws -> [Element] {
        var list = try keyed(key).array(key)
        var elements: [Element] = []
        elements.reserveCapacity(list.count)
        while !list.isAtEnd {
            let (index, path) = list.next()
            elements.append(try read(index, path))
        }
        return elements
    }
}
