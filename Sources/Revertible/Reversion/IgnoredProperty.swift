/// A property excluded from versioning with ``Reverter/ignore(_:)``.
struct IgnoredProperty<Root> {
    /// Writes the property of `source` into `target`.
    let copy: (inout Root, Root) -> Void

    init<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        copy = { target, source in target[keyPath: keyPath] = source[keyPath: keyPath] }
    }
}

extension Array {

    /// Writes these ignored properties of `source` into `target`.
    func copy<Root>(from source: Root, into target: inout Root) where Element == IgnoredProperty<Root> {
        for property in self {
            property.copy(&target, source)
        }
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
    ignored.copy(from: source, into: &typed)
    if let typed = typed as? Value { target = typed }
}
