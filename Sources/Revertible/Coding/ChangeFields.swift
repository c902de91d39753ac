/// One object of a saved change, read by its own keys from a ``ChangeReader``: what each
/// kind's reading is written against, with the checks every kind shares.
///
/// Its forwarding methods are always inlined, so that code generic over the user's types
/// calls them with the key type known, never looking up this type's metadata at run time.
struct ChangeFields<Key: CodingKey> {
    let reader: ChangeReader

    @inline(__always)
    init(_ reader: ChangeReader) {
        self.reader = reader
    }

    var codingPath: [any CodingKey] { reader.codingPath }

    @inline(__always)
    func contains(_ key: Key) -> Bool { reader.contains(AnyChangeKey(key)) }

    @inline(__always)
    func decodeString(forKey key: Key) throws -> String { try reader.string(forKey: AnyChangeKey(key)) }

    @inline(__always)
    func decodeBoolIfPresent(forKey key: Key) throws -> Bool? { try reader.boolIfPresent(forKey: AnyChangeKey(key)) }

    /// The object under `key`, which must be there, read by its keys.
    @inline(__always)
    func object<Nested: CodingKey>(forKey key: Key, keyedBy type: Nested.Type) throws -> ChangeFields<Nested> {
        ChangeFields<Nested>(try reader.object(forKey: AnyChangeKey(key)))
    }

    /// Each object of the array under `key`, in order, read by its keys.
    @inline(__always)
    func objects<Nested: CodingKey, Element>(
        forKey key: Key, keyedBy type: Nested.Type, _ read: (ChangeFields<Nested>) throws -> Element
    ) throws -> [Element] {
        var list = try reader.list(forKey: AnyChangeKey(key))
        var elements: [Element] = []
        while !list.isAtEnd {
            elements.append(try read(ChangeFields<Nested>(try list.nextObject())))
        }
        return elements
    }

    /// The change under `key`, a change of `Root`.
    @inline(__always)
    func node<Root>(_ root: Root.Type, forKey key: Key) throws -> DecodedNode<Root> {
        try reader.node(Root.self, forKey: AnyChangeKey(key))
    }

    /// A change's children.
    @inline(__always)
    func nodes<Root>(_ root: Root.Type, forKey key: Key) throws -> [DecodedNode<Root>] {
        try reader.nodes(Root.self, forKey: AnyChangeKey(key))
    }

    /// An error for content that does not fit, at `key` when given, as
    /// `DecodingError.dataCorruptedError(forKey:in:debugDescription:)` makes it.
    func corrupted(_ message: String, at key: Key? = nil) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: key.map { codingPath + [$0] } ?? codingPath, debugDescription: message))
    }

    /// Reads a value, naming `location` if it does not fit `Value` (a property whose type
    /// changed since the value was saved).
    @inline(__always)
    func decodeValue<Value: Decodable>(_ type: Value.Type, forKey key: Key, at location: @autoclosure () -> String) throws -> Value {
        do {
            return try reader.decode(Value.self, forKey: AnyChangeKey(key))
        } catch let error as DecodingError {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription: "the saved value at \(location()) is not a \(Value.self): \(error.briefDescription)",
                underlyingError: error
            ))
        }
    }

    /// Reads a count or an index: never negative.
    @inline(__always)
    func decodeCount(forKey key: Key) throws -> Int {
        let count = try reader.integer(forKey: AnyChangeKey(key))
        guard count >= 0 else { throw corrupted("\(count) is negative", at: key) }
        return count
    }
}

extension ChangeFields where Key == NodeCodingKey {

    /// Reads the node's kind, with the error `decode(NodeKind.self, forKey: .kind)` throws
    /// for a name that is not a kind.
    func decodeKind() throws -> NodeKind {
        // From JSON, the name's bytes are compared with the kinds' without making a `String`;
        // anything else (no name, not a plain string, no kind) is read below, for its error.
        if case let .json(object) = reader, let index = object.valueIndex(AnyChangeKey(Key.kind)),
           let kind = object.document.nodeKind(at: index) {
            return kind
        }
        let name = try decodeString(forKey: .kind)
        guard let kind = NodeKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [Key.kind], debugDescription: "Cannot initialize \(NodeKind.self) from invalid \(String.self) value \(name)"
            ))
        }
        return kind
    }

    /// Reads the key path under `p` and resolves it in `Root`.
    func decodeKeyPath<Root>(in root: Root.Type) throws -> ResolvedKeyPath {
        let text = try decodeString(forKey: .path)
        do {
            let (name, keyPath) = try KeyPathName.resolving(text, in: Root.self)
            return ResolvedKeyPath(keyPath: keyPath, name: name)
        } catch {
            throw corrupted(error.description, at: .path)
        }
    }

    /// Reads the key path under `p`, resolved in `Root`, and the type it holds as `Opened`
    /// (the metatype of what the kind needs there); refused with `refusal`'s words when the
    /// type is not one. Inlined, so that the cast is to the caller's metatype, not to one
    /// looked up at run time.
    @inline(__always)
    func decodeLocation<Root, Opened>(
        in root: Root.Type, holding opened: Opened.Type, refusal: (ResolvedKeyPath) -> String
    ) throws -> (path: ResolvedKeyPath, type: Opened) {
        try decodeLocation(in: Root.self, holding: { $0 as? Opened }, refusal: refusal)
    }

    /// ``decodeLocation(in:holding:refusal:)``, the type opened by `open` (for a kind that
    /// keeps each type's answer, see `rangeChange(from:)`).
    @inline(__always)
    func decodeLocation<Root, Opened>(
        in root: Root.Type, holding open: (Any.Type) -> Opened?, refusal: (ResolvedKeyPath) -> String
    ) throws -> (path: ResolvedKeyPath, type: Opened) {
        let path = try decodeKeyPath(in: Root.self)
        guard let type = open(path.valueType) else {
            throw corrupted(refusal(path), at: .path)
        }
        return (path, type)
    }

    /// Reads the old and the new value, under `o` and `n`.
    func decodeOldAndNew<Value: Decodable>(_ type: Value.Type, at location: String) throws -> (old: Value, new: Value) {
        (try decodeValue(Value.self, forKey: .old, at: location), try decodeValue(Value.self, forKey: .new, at: location))
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
