/// The reverter handed to ``Versionable/addReversions(into:)``: one pass over the registered
/// key paths finds both the changes and the ignored places passed on the way to them.
struct ReversionCollector<Root>: Reverter {

    let previous: Root
    let current: Root
    /// Most reversions hold one change; keeping it outside an array saves an allocation.
    private var first: (any ReversionNode<Root>)?
    private var rest: [any ReversionNode<Root>] = []
    /// The properties excluded with `ignore(_:)`, this type's own and those of the nested
    /// values compared (see ``IgnoredProperty``).
    private(set) var ignored: [IgnoredProperty<Root>] = []
    /// Whether a change was registered at a computed key path, which has no name to save.
    private(set) var usesComputedPaths = false

    init(previous: Root, current: Root) {
        self.previous = previous
        self.current = current
    }

    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value) {
        (previous[keyPath: keyPath], current[keyPath: keyPath])
    }

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

    mutating func ignore<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        ignored.append(IgnoredProperty(keyPath))
    }

    /// Lists the ignored places a nested value's comparison passed.
    mutating func keep(_ nested: [IgnoredProperty<Root>]) {
        ignored += nested
    }

    func makeNode() -> (any ReversionNode<Root>)? {
        guard let first else { return nil }
        return rest.isEmpty ? first : CompositeChange(nodes: [first] + rest)
    }
}
