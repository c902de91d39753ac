/// The kinds of saved changes, by the short name written in each node's `k` field. Each
/// kind's fields are listed in `Reversion+Codable.swift`; its coding lives next to the kind,
/// in `<Kind>+Coding.swift`.
enum NodeKind: String, Codable, CaseIterable {
    case value
    case path
    case all
    case some
    case invert
    case range
    case set
    case dict
    case diff
    case ids
    case whole
    case tree
    case text
}

/// Each kind's name packed as ``JSONDocument/packedName(at:)`` packs it.
private let packedNodeKinds: [(name: UInt64, kind: NodeKind)] = NodeKind.allCases.map { kind in
    var name: UInt64 = 0
    for (offset, byte) in kind.rawValue.utf8.enumerated() { name |= UInt64(byte) << (8 * offset) }
    return (name, kind)
}

extension JSONDocument {

    /// The kind named by the string at `index`, or `nil` when it is not a plain string naming
    /// one: the answer of `NodeKind(rawValue:)`, from the bytes, without making a `String`.
    func nodeKind(at index: Int) -> NodeKind? {
        guard let name = packedName(at: index) else { return nil }
        for entry in packedNodeKinds where entry.name == name { return entry.kind }
        return nil
    }

    /// The bytes of a string of one to eight ASCII characters without escapes, as one number
    /// (the first in the low byte; a string holds no zero byte, so two differ exactly when
    /// their numbers do), or `nil` for any other value.
    func packedName(at index: Int) -> UInt64? {
        let value = values[index]
        let count = Int(value.end &- value.start)
        guard value.kind == .string, value.flags == 0, (1...8).contains(count) else { return nil }
        return bytes.withUnsafeBufferPointer { bytes in
            var name: UInt64 = 0
            for offset in 0..<count { name |= UInt64(bytes[Int(value.start) + offset]) << (8 * offset) }
            return name
        }
    }
}

/// The keys of a saved node. Short, because a history holds many nodes; each kind uses the
/// ones it needs.
enum NodeCodingKey: String, CodingKey {
    case kind = "k"
    case path = "p"
    case old = "o"
    case new = "n"
    case child = "c"
    case offset = "at"
    case oldCount = "oc"
    case newCount = "nc"
    case added = "a"
    case removed = "r"
    case edits = "e"
    case structure = "s"
    /// The text kept before a run of text (see `TextRunContext`); absent in older archives.
    case before = "cb"
    /// The text kept after a run of text; absent in older archives.
    case after = "ca"
    /// The fingerprint of the text outside a run, in hexadecimal; absent in older archives.
    case fingerprint = "fp"
    /// Marks a composite change that holds no changes on purpose (see `CompositeChange`).
    case nothing = "none"
}

/// A node kind that can write itself.
///
/// Not a requirement of ``ReversionNode``: saving is optional, and a kind added without it is
/// refused with an error naming it instead of failing to compile.
protocol EncodableReversionNode {
    /// Writes the kind and every field the kind needs to be read back.
    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws
}

/// Writes any node through its kind's coding.
struct EncodedNode<Root>: Encodable {
    let node: any ReversionNode<Root>

    init(_ node: any ReversionNode<Root>) {
        self.node = node
    }

    func encode(to encoder: any Encoder) throws {
        guard let codable = node as? any EncodableReversionNode else {
            throw EncodingError.invalidValue(node, EncodingError.Context(
                codingPath: encoder.codingPath,
                debugDescription: "a change of kind \(type(of: node)) cannot be saved"
            ))
        }
        var container = encoder.container(keyedBy: NodeCodingKey.self)
        try codable.encode(into: &container)
    }
}

/// A node read back, with the location it writes, so a composite can refuse children whose
/// locations overlap.
struct DecodedNode<Root>: Decodable {
    let node: any ReversionNode<Root>
    /// The stored-property names of the location the node writes, from `Root`; empty when it
    /// writes `Root` itself.
    let location: [String]
    /// Whether `node` is a tree array's change (a `TreeArrayChangeNode`), which a key path's
    /// change around it holds re-rooted (see `keyPathChange(from:)`). Told by its reading,
    /// not by a cast at run time.
    let isTreeArrayChange: Bool

    init(_ node: any ReversionNode<Root>, at location: [String] = [], isTreeArrayChange: Bool = false) {
        self.node = node
        self.location = location
        self.isTreeArrayChange = isTreeArrayChange
    }

    /// Nesting deeper than this is refused: real reversions are a few levels deep, and
    /// reading or applying a hostile, deeper one could exhaust the stack.
    static var maximumDepth: Int { 400 }

    init(from decoder: any Decoder) throws {
        // The depth alone when the decoder knows it: building the path for every node costs.
        // (A cast to the concrete type: one to a protocol looks its conformance up, which cost
        // more than building the path.)
        let depth = (decoder as? JSONDocumentDecoder)?.codingDepth ?? decoder.codingPath.count
        try Self.checkDepth(depth, codingPath: decoder.codingPath)
        self = try Self.read(from: ChangeFields(.decoder(DecoderContainer(decoder.container(keyedBy: AnyChangeKey.self)))))
    }

    /// Refuses a node nested deeper than ``maximumDepth``.
    static func checkDepth(_ depth: Int, codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard depth <= maximumDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath(),
                debugDescription: "changes are nested deeper than \(maximumDepth) levels"
            ))
        }
    }

    /// Reads a node of any kind, by its kind's reading.
    static func read(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        switch try container.decodeKind() {
        case .value: try valueChange(from: container)
        case .path: try keyPathChange(from: container)
        case .all: try compositeChange(from: container)
        case .some: try optionalChange(from: container)
        case .invert: try invertedChange(from: container)
        case .range: try rangeChange(from: container)
        case .set: try setChange(from: container)
        case .dict: try dictionaryChange(from: container)
        case .diff: try arrayDifferenceChange(from: container)
        case .ids: try identifiedArrayChange(from: container)
        case .whole: try ignoringValueChange(from: container)
        case .tree: try treeArrayChange(from: container)
        case .text: try textBufferChange(from: container)
        }
    }
}

/// `node` as a node of `Root`, when `Root` is its root type (and `nil` otherwise): the same
/// answer as `node as? any ReversionNode<Root>`, without the run-time cast to a constrained
/// existential, which cost decoding a tree array's change about 5% of a step.
@inline(__always)
func reversionNode<Own, Root>(_ node: some ReversionNode<Own>, as root: Root.Type) -> (any ReversionNode<Root>)? {
    guard Own.self == Root.self else { return nil }
    // The same type: an existential of `ReversionNode<Own>` is one of `ReversionNode<Root>`.
    return unsafeBitCast(node as any ReversionNode<Own>, to: (any ReversionNode<Root>).self)
}

/// A key path read back, with its name for messages.
struct ResolvedKeyPath {
    let keyPath: AnyKeyPath
    let name: KeyPathName

    var valueType: Any.Type { type(of: keyPath).valueType }
}

extension KeyedEncodingContainer where Key == NodeCodingKey {

    /// Writes a change's kind and its location under `p`, and returns the location's name
    /// for messages about the values there.
    @discardableResult
    mutating func encodeKind(_ kind: NodeKind, at keyPath: AnyKeyPath) throws -> String {
        try encode(kind, forKey: .kind)
        return try encodeKeyPath(keyPath)
    }

    /// Writes a change's kind and the one change it holds, under `c`.
    mutating func encodeKind<Root>(_ kind: NodeKind, around child: any ReversionNode<Root>) throws {
        try encode(kind, forKey: .kind)
        try encode(EncodedNode(child), forKey: .child)
    }

    /// Writes `keyPath`'s name under `p`, and returns it for messages about the values there.
    private mutating func encodeKeyPath(_ keyPath: AnyKeyPath) throws -> String {
        do {
            let name = try KeyPathName.name(of: keyPath)
            try encode(name.text, forKey: .path)
            return name.text
        } catch let error as KeyPathNameError {
            // The key path's type, not the key path: a computed one prints an address.
            throw EncodingError.invalidValue(type(of: keyPath), EncodingError.Context(
                codingPath: codingPath + [Key.path],
                debugDescription: error.description
            ))
        }
    }
}

extension KeyedEncodingContainer {

    /// Writes a value with its own `Encodable` conformance, found at run time.
    ///
    /// - Throws: `EncodingError.invalidValue` naming `location` and the value's type when the
    ///   type is not `Encodable`.
    mutating func encodeValue<Value>(_ value: Value, forKey key: Key, at location: String) throws {
        try encode(encodable(value, at: location, codingPath: codingPath + [key]), forKey: key)
    }

    /// Writes values with their own `Encodable` conformance, in order.
    mutating func encodeValues<Value>(_ values: [Value], forKey key: Key, at location: String) throws {
        var list = nestedUnkeyedContainer(forKey: key)
        for value in values {
            try list.encode(encodable(value, at: location, codingPath: list.codingPath))
        }
    }
}

/// `value` as `Encodable`, or the error that names where it was and its type.
func encodable<Value>(_ value: Value, at location: String, codingPath: [any CodingKey]) throws -> any Encodable {
    guard let encodable = value as? any Encodable else {
        throw EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath,
            debugDescription: "the value at \(location) cannot be saved: \(type(of: value)) is not Encodable"
        ))
    }
    return encodable
}

extension DecodingError {

    /// The error's own message, without its coding path.
    var briefDescription: String {
        switch self {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context), let .dataCorrupted(context):
            context.debugDescription
        @unknown default:
            "\(self)"
        }
    }
}
