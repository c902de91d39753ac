/// The reverter handed to ``Versionable/addReversions(into:)``: one pass over the registered
/// key paths finds both the changes and the ignored places passed on the way to them.
///
/// Visible to clients (as is ``Versionable/difference(from:)``) so that a client's
/// `addReversions(into:)` specializes for it where the client records its own type.
@usableFromInline
struct ReversionCollector<Root>: Reverter {

    @usableFromInline let previous: Root
    @usableFromInline let current: Root
    /// Most reversions hold one change; keeping it outside an array saves an allocation.
    @usableFromInline var first: (any ReversionNode<Root>)?
    @usableFromInline var rest: [any ReversionNode<Root>] = []
    /// The properties excluded with `ignore(_:)`, this type's own and those of the nested
    /// values compared (see ``IgnoredProperty``).
    @usableFromInline var ignored: [IgnoredProperty<Root>] = []
    /// Whether a change was registered at a computed key path, which has no name to save.
    @usableFromInline var usesComputedPaths = false

    @inlinable
    init(previous: Root, current: Root) {
        self.previous = previous
        self.current = current
    }

    @inlinable
    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value) {
        // A stored property is read at its offset: applying a key path is a call into the
        // runtime, about 450 instructions, paid twice for every property compared.
        guard let offset = MemoryLayout<Root>.offset(of: keyPath) else {
            return (previous[keyPath: keyPath], current[keyPath: keyPath])
        }
        return (Self.value(at: offset, in: previous), Self.value(at: offset, in: current))
    }

    /// The value of the stored property at `offset` in `root` (an offset `MemoryLayout` gave
    /// for a key path to a `Value`).
    @inlinable @inline(__always)
    static func value<Value>(at offset: Int, in root: Root) -> Value {
        withUnsafePointer(to: root) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self) }
    }

    @inlinable
    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>) {
        // A stored property has an offset; `\Root.self` has offset 0.
        if !usesComputedPaths, MemoryLayout<Root>.offset(of: keyPath) == nil {
            usesComputedPaths = true
        }
        let node = reversion.node(at: keyPath)
        if first == nil {
            first = node
        } else {
            rest.append(node)
        }
    }

    @inlinable
    mutating func ignore<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        ignored.append(IgnoredProperty(keyPath))
    }

    /// Lists the ignored places a nested value's comparison passed.
    @inlinable
    mutating func keep(_ nested: [IgnoredProperty<Root>]) {
        ignored += nested
    }

    @inlinable
    func makeNode() -> (any ReversionNode<Root>)? {
        guard let first else { return nil }
        return rest.isEmpty ? first : combined(first)
    }

    /// Several changes as one node (out of line: most reversions hold one change).
    @usableFromInline
    func combined(_ first: any ReversionNode<Root>) -> any ReversionNode<Root> {
        combinedNode([first] + rest)
    }
}
