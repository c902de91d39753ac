/// `\Root.self`, made once per type.
///
/// In code not specialized for `Root`, the literal `\Root.self` is no constant: the runtime
/// instantiates it at every evaluation, demangling `Root` from the key path's pattern, which
/// costs about a microsecond; recording evaluates it several times per step.
func selfKeyPath<Root>(_: Root.Type = Root.self) -> WritableKeyPath<Root, Root> {
    unsafeDowncast(selfKeyPaths.entry(for: Root.self) { \Root.self as AnyKeyPath & Sendable }, to: WritableKeyPath<Root, Root>.self)
}

/// Per type: its identity key path.
private let selfKeyPaths = TypeMemo<AnyKeyPath & Sendable>()

/// Whether `keyPath` is the identity key path `\Root.self`.
///
/// Without making `\Root.self` (see ``selfKeyPath(_:)``): of the key paths from a type to
/// itself, only the identity is stored inline at offset 0. A stored property of a struct
/// cannot have its own struct's type, and a class's properties have no inline offset.
func isSelfKeyPath<Root, Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Bool {
    Root.self == Value.self && MemoryLayout<Root>.offset(of: keyPath) == 0
}
