/// The reverter handed to ``Versionable/addReversions(into:)``.
struct ReversionCollector<Root>: Reverter {

    let previous: Root
    let current: Root
    /// Most reversions hold one change; keeping it outside an array saves an allocation.
    private var first: (any ReversionNode<Root>)?
    private var rest: [any ReversionNode<Root>] = []
    /// The properties excluded with `ignore(_:)`.
    private(set) var ignored: [IgnoredProperty<Root>] = []

    init(previous: Root, current: Root) {
        self.previous = previous
        self.current = current
    }

    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value) {
        (previous[keyPath: keyPath], current[keyPath: keyPath])
    }

    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>) {
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

    func makeNode() -> (any ReversionNode<Root>)? {
        guard let first else { return nil }
        return rest.isEmpty ? first : CompositeChange(nodes: [first] + rest)
    }
}

/// A property excluded from versioning with ``Reverter/ignore(_:)``.
struct IgnoredProperty<Root> {
    /// Writes the property of `source` into `target`.
    let copy: (inout Root, Root) -> Void

    init<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        copy = { target, source in target[keyPath: keyPath] = source[keyPath: keyPath] }
    }
}

/// Finds the properties a ``Versionable`` type ignores, without comparing anything: both
/// versions are the same value, so every registered comparison stops at shared storage.
struct IgnoredPropertyCollector<Root>: Reverter {
    let value: Root
    var ignored: [IgnoredProperty<Root>] = []

    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value) {
        let value = value[keyPath: keyPath]
        return (value, value)
    }

    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>) {}

    mutating func ignore<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        ignored.append(IgnoredProperty(keyPath))
    }
}

extension Versionable {

    /// The properties this type excludes with ``Reverter/ignore(_:)``.
    func ignoredProperties() -> [IgnoredProperty<Self>] {
        var collector = IgnoredPropertyCollector(value: self)
        addReversions(into: &collector)
        return collector.ignored
    }
}

/// Writes the properties `source`'s type ignores into `target`: the history's copy of the
/// current version always holds the caller's latest ignored state, so undo and redo hand
/// it back unchanged.
func copyIgnoredProperties<Value>(from source: Value, into target: inout Value) {
    guard let source = source as? any Versionable else { return }
    copyIgnoredProperties(of: source, into: &target)
}

private func copyIgnoredProperties<Source: Versionable, Value>(of source: Source, into target: inout Value) {
    let ignored = source.ignoredProperties()
    guard !ignored.isEmpty, var typed = target as? Source else { return }
    for property in ignored {
        property.copy(&typed, source)
    }
    if let typed = typed as? Value { target = typed }
}
