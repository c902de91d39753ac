import Foundation

/// One object of a parsed ``JSONDocument``, read member by member without a `Decoder`: what
/// the library reads of its own shapes (an archive, its outline and steps, a reversion's
/// envelope), so that `Codable`'s boxed containers are left to the user's values.
///
/// Reads as ``JSONKeyedContainer`` reads, with the same errors at the same coding paths: a
/// missing key, a value of the wrong kind or a number that does not fit is refused exactly as
/// `decode(_:forKey:)` and `decodeIfPresent(_:forKey:)` refuse it.
struct JSONObjectReader<Key: CodingKey> {
    let document: JSONDocument
    /// The index of the object's value.
    let object: Int
    let path: JSONCodingPath?

    /// The object at `index`, refused as `container(keyedBy:)` refuses any other value.
    init(_ document: JSONDocument, at index: Int, path: JSONCodingPath?) throws {
        let value = document.values[index]
        guard value.kind == .object else {
            throw mismatch([String: Any].self, value, codingPath: JSONCodingPath.array(path))
        }
        self.init(document: document, object: index, path: path)
    }

    /// An object already checked to be one.
    init(document: JSONDocument, object: Int, path: JSONCodingPath?) {
        self.document = document
        self.object = object
        self.path = path
    }

    var codingPath: [any CodingKey] { JSONCodingPath.array(path) }

    /// The index of the value under `key`, the first if the key appears more than once.
    @inline(__always)
    func valueIndex(_ key: Key) -> Int? {
        document.member(key.stringValue, of: object)
    }

    /// The index of the value under `key`, which must be there.
    func required(_ key: Key) throws -> Int {
        guard let index = valueIndex(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
            ))
        }
        return index
    }

    /// The index of the value under `key`, or `nil` when it is absent or `null`.
    @inline(__always)
    private func presentIndex(_ key: Key) -> Int? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return index
    }

    func link(_ key: Key) -> JSONCodingPath {
        // A change's key is kept as the key it stands for: an `AnyChangeKey`, itself an
        // existential, does not fit in one and would be boxed, a second allocation a link.
        if Key.self == AnyChangeKey.self { return JSONCodingPath(parent: path, key: unsafeBitCast(key, to: AnyChangeKey.self).base) }
        return JSONCodingPath(parent: path, key: key)
    }

    func keyPath(_ key: Key) -> [any CodingKey] { JSONCodingPath.appending(key, to: path) }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }

    /// Whether the value under `key`, which must be there, is `null`.
    func isNull(_ key: Key) throws -> Bool {
        document.values[try required(key)].kind == .null
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try document.decodeInteger(T.self, at: try required(key), codingPath: keyPath(key))
    }

    func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = presentIndex(key) else { return nil }
        return try document.decodeInteger(T.self, at: index, codingPath: keyPath(key))
    }

    func string(_ key: Key) throws -> String {
        try document.decodeString(at: try required(key), codingPath: keyPath(key))
    }

    func stringIfPresent(_ key: Key) throws -> String? {
        guard let index = presentIndex(key) else { return nil }
        return try document.decodeString(at: index, codingPath: keyPath(key))
    }

    func boolIfPresent(_ key: Key) throws -> Bool? {
        guard let index = presentIndex(key) else { return nil }
        return try document.decodeBool(at: index, codingPath: keyPath(key))
    }

    /// A value of the user's (or any `Decodable`), through its conformance.
    func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decodeValue(T.self, at: try required(key), key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        guard let index = presentIndex(key) else { return nil }
        return try decodeValue(T.self, at: index, key)
    }

    /// A common leaf value read here, without the coding path a decoder would be given
    /// (built only for an error); any other through its conformance.
    @inline(__always)
    private func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, _ key: Key) throws -> T {
        try document.decodeLeaf(T.self, at: index, codingPath: keyPath(key)) {
            try JSONDocumentDecoder(document: document, index: index, path: link(key)).unwrapOtherThanLeaf(T.self)
        }
    }

    /// The object under `key`, which must be there.
    func object<NestedKey: CodingKey>(_ key: Key, keyedBy type: NestedKey.Type) throws -> JSONObjectReader<NestedKey> {
        try JSONObjectReader<NestedKey>(document, at: try required(key), path: link(key))
    }

    /// The object under `key`, or `nil` when it is absent or `null`.
    func objectIfPresent<NestedKey: CodingKey>(_ key: Key, keyedBy type: NestedKey.Type) throws -> JSONObjectReader<NestedKey>? {
        guard let index = presentIndex(key) else { return nil }
        return try JSONObjectReader<NestedKey>(document, at: index, path: link(key))
    }

    /// The array under `key`, which must be there.
    func array(_ key: Key) throws -> JSONArrayReader {
        try JSONArrayReader(document, at: try required(key), path: link(key))
    }

    /// The error for content that does not fit, at `key`, as
    /// `DecodingError.dataCorruptedError(forKey:in:debugDescription:)` makes it.
    func corrupted(_ message: String, at key: Key) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: keyPath(key), debugDescription: message))
    }
}

/// One array of a parsed ``JSONDocument``, read element by element without a `Decoder`, as
/// ``JSONUnkeyedContainer`` reads it.
struct JSONArrayReader {
    let document: JSONDocument
    let path: JSONCodingPath?
    /// How many elements the array holds.
    let count: Int
    /// The position of the next element.
    private(set) var currentIndex = 0
    /// The index of the next element's value.
    private var element: Int

    /// The array at `index`, refused as `unkeyedContainer()` refuses any other value.
    init(_ document: JSONDocument, at index: Int, path: JSONCodingPath?) throws {
        let value = document.values[index]
        guard value.kind == .array else {
            throw mismatch([Any].self, value, codingPath: JSONCodingPath.array(path))
        }
        self.document = document
        self.path = path
        self.count = Int(value.count)
        self.element = index + 1
    }

    var isAtEnd: Bool { currentIndex >= count }

    /// The next element's index and coding path; moves past it. Not at the end.
    mutating func next() -> (index: Int, path: JSONCodingPath) {
        let found = (element, JSONCodingPath(parent: path, key: JSONIndexKey(index: currentIndex)))
        element = Int(document.values[element].next)
        currentIndex += 1
        return found
    }

    /// The next element, an object; moves past it. Not at the end.
    mutating func nextObject<Key: CodingKey>(keyedBy type: Key.Type) throws -> JSONObjectReader<Key> {
        let (index, path) = next()
        return try JSONObjectReader<Key>(document, at: index, path: path)
    }
}
