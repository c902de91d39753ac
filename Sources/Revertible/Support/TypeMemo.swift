/// Values kept per type for the life of the process, each made at most once.
///
/// For what code not specialized for a type would otherwise work out again on every call
/// (a dynamic cast, a key path instantiated from its mangled name, closures compiled for the
/// type). Types are keyed by their metadata's identity, which lives as long as the process.
/// Locked with ``Locked``, which ThreadSanitizer understands.
struct TypeMemo<Entry: Sendable>: Sendable {
    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    init() {}

    /// The entry made for `type`, if any.
    func entry(for type: Any.Type) -> Entry? {
        entries.withLock { $0[ObjectIdentifier(type)] }
    }

    /// The entry for `type`, made by `make` if there is none yet. `make` runs outside the
    /// lock (it may use other memos); if two threads make one at once, the first kept wins.
    func entry(for type: Any.Type, making make: () -> Entry) -> Entry {
        if let known = entry(for: type) { return known }
        let made = make()
        return entries.withLock { entries in
            if let known = entries[ObjectIdentifier(type)] { return known }
            entries[ObjectIdentifier(type)] = made
            return made
        }
    }
}
