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
        versions(at: keyPath, offset: MemoryLayout<Root>.offset(of: keyPath))
    }

    /// The versions at `keyPath`, whose offset in `Root` (`nil`: not a stored property) the
    /// caller already asked: a stored property is read at its offset (see
    /// Support/StoredProperty.swift).
    @inlinable
    func versions<Value>(at keyPath: KeyPath<Root, Value>, offset: Int?) -> (previous: Value, current: Value) {
        guard let offset else { return (previous[keyPath: keyPath], current[keyPath: keyPath]) }
        return (storedProperty(at: offset, of: previous), storedProperty(at: offset, of: current))
    }

    @inlinable
    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>) {
        // A stored property has an offset; `\Root.self` has offset 0.
        if !usesComputedPaths, MemoryLayout<Root>.offset(of: keyPath) == nil {
            usesComputedPaths = true
        }
        appendNode(reversion.node(at: keyPath))
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

    /// Appends `node`, a change of `Root` itself: what `append(_:at:)` makes of a reversion,
    /// or a lent tree's change a journal described (`TreeArrayJournaledComparison`), which
    /// is already one.
    @inlinable
    mutating func appendNode(_ node: any ReversionNode<Root>) {
        if first == nil {
            first = node
        } else {
            rest.append(node)
        }
    }

    /// The node appended last.
    @inlinable
    var lastNode: (any ReversionNode<Root>)? {
        rest.last ?? first
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
