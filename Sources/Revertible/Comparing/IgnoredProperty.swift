/// A place a ``Versionable`` type leaves out of versioning with ``Reverter/ignore(_:)``, seen
/// from `Root`: its own property, or one of a value nested at any depth (a property of a
/// property, of an element of a collection, of an optional's wrapped value).
///
/// A comparison of two versions lists the places it passed on its way to the changes, so
/// that a history's copy of the newer version takes the caller's content there: no step
/// records it, and undo and redo hand it back as the caller last set it. Unchanged subtrees
/// are never descended into, so they list nothing and cost nothing.
///
/// A place, or a value on the way to it, that the copy already holds byte for byte is not
/// written: the copy usually took the newer version's storage there (a tree's shared
/// nodes), and writing the same content would copy that storage's path for nothing. Worse,
/// the copy would then hold the newer version in other chunks than the present, and the next
/// comparison, which skips only shared chunks, would walk, and list the changes, otherwise
/// than a history whose copy shares them (issue 39, seeds 1428, 1475, 1520).
@usableFromInline
package struct IgnoredProperty<Root> {
    /// Writes the content at this place of the second value (the newer version) into the
    /// first; does nothing where the first does not have the place (a shorter array, a
    /// different element there, `nil`), as happens when it is not the same version.
    @usableFromInline let copy: (inout Root, Root) -> Void

    @usableFromInline
    init<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        copy = { target, source in
            let value = source[keyPath: keyPath]
            guard !isBitwiseIdentical(target[keyPath: keyPath], value) else { return }
            target[keyPath: keyPath] = value
        }
    }

    @usableFromInline
    init(copy: @escaping (inout Root, Root) -> Void) {
        self.copy = copy
    }
}

extension Array {

    /// Writes these places of `source` into `target`.
    @usableFromInline
    func copy<Root>(from source: Root, into target: inout Root) where Element == IgnoredProperty<Root> {
        for property in self {
            property.copy(&target, source)
        }
    }

    /// These places, seen from `Parent`, which holds their root at `keyPath`.
    @inlinable
    func rerooted<Root, Parent>(at keyPath: WritableKeyPath<Parent, Root>) -> [IgnoredProperty<Parent>] where Element == IgnoredProperty<Root> {
        // Most comparisons pass no ignored place: inlined, this answers them without a call.
        guard !isEmpty else { return [] }
        return rerootedNonEmpty(at: keyPath)
    }

    @usableFromInline
    func rerootedNonEmpty<Root, Parent>(at keyPath: WritableKeyPath<Parent, Root>) -> [IgnoredProperty<Parent>] where Element == IgnoredProperty<Root> {
        map { property in
            IgnoredProperty { target, source in
                let value = source[keyPath: keyPath]
                guard !isBitwiseIdentical(target[keyPath: keyPath], value) else { return }
                property.copy(&target[keyPath: keyPath], value)
            }
        }
    }

    /// These places, seen from an optional that wraps their root.
    func wrapped<Root>() -> [IgnoredProperty<Root?>] where Element == IgnoredProperty<Root> {
        map { property in
            IgnoredProperty { target, source in
                // Checked without a binding of `target`'s value, which would hold its storage
                // while it is written.
                guard let source, target.map({ !isBitwiseIdentical($0, source) }) ?? false else { return }
                property.copy(&target!, source)
            }
        }
    }

    /// These places, seen from a collection whose element at `position` (`id`, in the newer
    /// version) is their root.
    @inlinable
    func atElement<Root: Identifiable, Elements>(
        _ position: Elements.Index,
        id: Root.ID,
        of _: Elements.Type
    ) -> [IgnoredProperty<Elements>] where Element == IgnoredProperty<Root>, Elements: MutableCollection, Elements.Element == Root {
        map { property in
            IgnoredProperty { target, source in
                guard position >= source.startIndex, position < source.endIndex,
                      position >= target.startIndex, position < target.endIndex,
                      case let value = source[position], !isBitwiseIdentical(target[position], value),
                      target[position].id == id else { return }
                property.copy(&target[position], value)
            }
        }
    }

    /// These places, seen from a dictionary whose value at `key` is their root.
    func atValue<Key: Hashable, Root>(forKey key: Key) -> [IgnoredProperty<[Key: Root]>] where Element == IgnoredProperty<Root> {
        map { property in
            IgnoredProperty { target, source in
                guard let value = source[key], target[key].map({ !isBitwiseIdentical($0, value) }) ?? false else { return }
                property.copy(&target[key]!, value)
            }
        }
    }
}

/// Finds the properties a ``Versionable`` type ignores itself, without comparing anything:
/// both versions are the same value, so every registered comparison stops at shared storage.
/// For a value replaced whole (another identity), where no comparison runs to find them.
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

    /// The properties this type itself excludes with ``Reverter/ignore(_:)``.
    func ignoredProperties() -> [IgnoredProperty<Self>] {
        var collector = IgnoredPropertyCollector(value: self)
        addReversions(into: &collector)
        return collector.ignored
    }
}

extension Reverter {

    /// Hands `ignored`, the places a nested comparison passed, to the reverter the
    /// comparison runs in, which lists them with its own (see ``IgnoredProperty``).
    ///
    /// Not a requirement of the protocol: only the library's own reverters keep a history's
    /// copy, and a reverter of another kind has no use for them. Checked by type identity, a
    /// pointer comparison, and only when a nested value listed places.
    @inlinable
    mutating func keep(_ ignored: [IgnoredProperty<Root>]) {
        guard !ignored.isEmpty, !asReverter(ReversionCollector<Root>.self, { $0.keep(ignored) }) else { return }
        // A history's comparison after a journaled run: the same collector inside.
        _ = asReverter(TreeArrayJournaledComparison<Root>.self) { $0.collector.keep(ignored) }
    }
}
