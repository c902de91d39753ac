/// The kinds of saved changes, by the short name written in each node's `k` field. Each
/// kind's fields are listed in `Reversion+Codable.swift`; its coding lives next to the kind,
/// in `<Kind>+Coding.swift`.
enum NodeKind: String, Codable {
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

    init(_ node: any ReversionNode<Root>, at location: [String] = []) {
        self.node = node
        self.location = location
    }

    /// Nesting deeper than this is refused: real reversions are a few levels deep, and
    /// reading or applying a hostile, deeper one could exhaust the stack.
    static var maximumDepth: Int { 400 }

    init(from decoder: any Decoder) throws {
        // The depth alone when the decoder knows it: building the path for every node costs.
        // (A cast to the concrete type: one to a protocol looks its conformance up, which cost
        // more than building the path.)
        let depth = (decoder as? JSONDocumentDecoder)?.codingDepth ?? decoder.codingPath.count
        guard depth <= Self.maximumDepth else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "changes are nested deeper than \(Self.maximumDepth) levels"
            ))
        }
        let container = try decoder.container(keyedBy: NodeCodingKey.self)
        switch try container.decodeKind() {
        case .value: self = try Self.valueChange(from: container)
        case .path: self = try Self.keyPathChange(from: container)
        case .all: self = try Self.compositeChange(from: container)
        case .some: self = try Self.optionalChange(from: container)
        case .invert: self = try Self.invertedChange(from: container)
        case .range: self = try Self.rangeChange(from: container)
        case .set: self = try Self.setChange(from: container)
        case .dict: self = try Self.dictionaryChange(from: container)
        case .diff: self = try Self.arrayDifferenceChange(from: container)
        case .ids: self = try Self.identifiedArrayChange(from: container)
        case .whole: self = try Self.ignoringValueChange(from: container)
        case .tree: self = try Self.treeArrayChange(from: container)
        case .text: self = try Self.textBufferChange(from: container)
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

    /// Writes `keyPath`'s name under `p`, and returns it for messages about the values there.
    @discardableResult
    mutating func encodeKeyPath(_ keyPath: AnyKeyPath) throws -> String {
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

extension KeyedDecodingContainer {

    /// An error for content that does not fit, at `key` when given.
    func corrupted(_ message: String, at key: Key? = nil) -> DecodingError {
        if let key {
            return .dataCorruptedError(forKey: key, in: self, debugDescription: message)
        }
        return .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: message))
    }

    /// Reads a value, naming `location` if it does not fit `Value` (a property whose type
    /// changed since the value was saved).
    func decodeValue<Value: Decodable>(_ type: Value.Type, forKey key: Key, at location: String) throws -> Value {
        do {
            return try decode(Value.self, forKey: key)
        } catch let error as DecodingError {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "the saved value at \(location) is not a \(Value.self): \(error.briefDescription)",
                underlyingError: error
            ))
        }
    }

    /// Reads a count or an index: never negative.
    func decodeCount(forKey key: Key) throws -> Int {
        let count = try decode(Int.self, forKey: key)
        guard count >= 0 else { throw corrupted("\(count) is negative", at: key) }
        return count
    }

    /// Reads a change's children.
    func decodeNodes<Root>(_ root: Root.Type, forKey key: Key) throws -> [DecodedNode<Root>] {
        try decode([DecodedNode<Root>].self, forKey: key)
    }
}

extension KeyedDecodingContainer where Key == NodeCodingKey {

    /// Reads the node's kind, as `decode(NodeKind.self, forKey: .kind)` does, with the same
    /// error for a name that is not a kind, without a decoder and container of its own.
    func decodeKind() throws -> NodeKind {
        let name = try decode(String.self, forKey: .kind)
        guard let kind = NodeKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [Key.kind], debugDescription: "Cannot initialize \(NodeKind.self) from invalid \(String.self) value \(name)"
            ))
        }
        return kind
    }

    /// Reads the key path under `p` and resolves it in `Root`.
    func decodeKeyPath<Root>(in root: Root.Type) throws -> ResolvedKeyPath {
        let text = try decode(String.self, forKey: .path)
        do {
            let (name, keyPath) = try KeyPathName.resolving(text, in: Root.self)
            return ResolvedKeyPath(keyPath: keyPath, name: name)
        } catch {
            throw corrupted(error.description, at: .path)
        }
    }

    /// `path` as a writable key path to `Value`, the type the kind needs there.
    func writable<Root, Value>(_ path: ResolvedKeyPath, to value: Value.Type) throws -> WritableKeyPath<Root, Value> {
        guard let keyPath = path.keyPath as? WritableKeyPath<Root, Value> else {
            let reason = path.valueType == Value.self ? "is not writable (a let)" : "holds \(path.valueType), not \(Value.self)"
            throw corrupted("the saved location \(path.name.text) \(reason)", at: .path)
        }
        return keyPath
    }
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
