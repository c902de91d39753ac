/// Collects the changes between two versions of a ``Versionable`` value.
///
/// You receive one in ``Versionable/addReversions(into:)`` and register the key paths to
/// compare. Each `appendReversion(at:)` compares the two versions at that key path and stores
/// a change only when they differ, choosing the cheapest faithful description of it: the
/// changed range of a `String` or `Data`, the added and removed members of a `Set`, inserts,
/// removes, moves and per-element edits of an array, or the old and new value of a leaf.
public protocol Reverter<Root> {

    /// The type whose versions are compared.
    associatedtype Root

    /// The two versions of the value at `keyPath`: the one being reverted to, and the newer one.
    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value)

    /// Adds a reversion of the value at `keyPath`, so it applies to `Root`.
    ///
    /// Use this to compose a reversion you computed yourself; the `appendReversion(at:)`
    /// overloads call it for you.
    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>)

    /// Excludes the property at `keyPath` from versioning: differences only there make no
    /// step, and undo and redo never write there.
    ///
    /// This holds at any depth: where this type is nested in another (a property, an
    /// element of an array of identifiable values or of a ``TreeArray``, an optional, a
    /// dictionary's value), its ignored properties stay out of the outer value's steps too,
    /// and a history hands them back as the caller last recorded them. Finding them costs
    /// nothing beyond the comparison itself: it descends only into what changed.
    ///
    /// ```swift
    /// reverter.appendReversion(at: \.shapes)
    /// reverter.ignore(\.hover)
    /// ```
    ///
    /// A property neither registered nor ignored is still covered: a difference only there
    /// is stored as the whole old and new value, so reverting restores exactly what was
    /// there (the safe default for a property you forgot).
    mutating func ignore<Value>(_ keyPath: WritableKeyPath<Root, Value>)
}

extension Reverter {

    /// Ignores nothing: a reverter that only compares has no use for exclusions.
    public mutating func ignore<Value>(_ keyPath: WritableKeyPath<Root, Value>) {}

    /// Whether the value at `keyPath` differs between the two versions.
    ///
    /// Use it to guard a whole-value overwrite, as when an enum changes case.
    public func hasChanged<Value: Equatable>(at keyPath: KeyPath<Root, Value>) -> Bool {
        let (previous, current) = versions(at: keyPath)
        return previous != current
    }

    /// Records the value at `keyPath` whole, if it changed: reverting writes the previous
    /// value back.
    public mutating func appendOverwriteReversion<Value: Equatable>(at keyPath: WritableKeyPath<Root, Value>) {
        let (previous, current) = versions(at: keyPath)
        guard previous != current else { return }
        append(Reversion(node: ValueChange(at: selfKeyPath(Value.self), from: previous, to: current)), at: keyPath)
    }

    /// Records a change of any `Equatable` leaf (your own enums and structures that are not
    /// ``Revertible``, and their optionals) as its old and new value.
    public mutating func appendReversion<Value: Equatable>(at keyPath: WritableKeyPath<Root, Value>) {
        appendOverwriteReversion(at: keyPath)
    }

    /// Records the changes inside a library-provided revertible value: the changed range of a
    /// `String` or `Data`, the changed members of a `Set`, the edits of an `Array` or a
    /// `Dictionary`.
    public mutating func appendReversion<Value: Revertible>(at keyPath: WritableKeyPath<Root, Value>) {
        // A text reached through a caller generic over its type takes the `TextBuffer`
        // overload, which a history's lending walks need; one type comparison for any other value.
        if Value.self == TextBuffer.self {
            appendReversion(at: unsafeDowncast(keyPath, to: WritableKeyPath<Root, TextBuffer>.self))
            return
        }
        let (previous, current) = versions(at: keyPath)
        guard let reversion = current.reversion(to: previous) else { return }
        append(reversion, at: keyPath)
    }

    /// Records the changes inside a nested ``Versionable`` value, at the deepest key paths that
    /// changed.
    public mutating func appendReversion<Value: Versionable>(at keyPath: WritableKeyPath<Root, Value>) {
        let (previous, current) = versions(at: keyPath)
        // `==` first: an unchanged subtree costs one comparison, which stops at shared storage.
        guard previous != current else { return }
        let difference = current.difference(from: previous)
        keep(difference.ignored.rerooted(at: keyPath))
        guard let node = difference.node else { return }
        append(Reversion(node: node), at: keyPath)
    }

    /// Records the changes inside an optional revertible value: its inner changes while it
    /// stays non-`nil`, otherwise the whole old and new value.
    public mutating func appendReversion<Value: Revertible>(at keyPath: WritableKeyPath<Root, Value?>) {
        let (previous, current) = versions(at: keyPath)
        guard previous != current else { return }
        // A one-location value (a number, a date) is stored whole, not wrapped in an optional change.
        if let previous, let current, let inner = current.reversion(to: previous), !(inner.node is ValueChange<Value, Value>) {
            append(Reversion(node: OptionalChange(wrapping: inner.node)), at: keyPath)
        } else {
            appendOverwriteReversion(at: keyPath)
        }
    }

    /// Records the changes inside an optional ``Versionable`` value: its inner changes while it
    /// stays non-`nil`, otherwise the whole old and new value.
    public mutating func appendReversion<Value: Versionable>(at keyPath: WritableKeyPath<Root, Value?>) {
        let (previous, current) = versions(at: keyPath)
        guard previous != current else { return }
        if let previous, let current {
            let difference = current.difference(from: previous)
            keep(difference.ignored.wrapped().rerooted(at: keyPath))
            guard let node = difference.node else { return }
            append(Reversion(node: OptionalChange(wrapping: node)), at: keyPath)
        } else {
            appendOverwriteReversion(at: keyPath)
        }
    }

    /// Records the changes of an array of identifiable values by identity: inserted and
    /// removed elements, moves, and the edits inside elements that kept their identity.
    ///
    /// Inlinable: the walk over the unchanged elements is specialized for `Element` in the
    /// caller's module (see `identifiedCommonEnds(_:_:)`).
    @inlinable @inline(__always)
    public mutating func appendReversion<Element: Identifiable & Versionable>(
        at keyPath: WritableKeyPath<Root, [Element]>
    ) {
        let (previous, current) = versions(at: keyPath)
        guard let ends = identifiedCommonEnds(previous, current) else { return }
        let (reversion, ignored) = identifiedArrayReversion(at: keyPath, from: previous, to: current, ends: ends)
        keep(ignored)
        guard let reversion else { return }
        appendAtRoot(reversion)
    }

    /// Records the changes of a dictionary of ``Versionable`` values as the `Revertible`
    /// overload does (the keys inserted and removed, the edits inside the values kept), with
    /// the properties the values ignore left out, at any depth.
    public mutating func appendReversion<Key: Hashable, Value: Versionable & Hashable>(at keyPath: WritableKeyPath<Root, [Key: Value]>) {
        let (previous, current) = versions(at: keyPath)
        var ignored: [IgnoredProperty<[Key: Value]>] = []
        let change = DictionaryChange.make(at: selfKeyPath([Key: Value].self), from: previous, to: current, ignored: &ignored)
        keep(ignored.rerooted(at: keyPath))
        guard let change else { return }
        append(Reversion(node: change), at: keyPath)
    }

    /// Records the changes of an array of `Equatable` elements as the elements inserted and
    /// removed (a collection difference), never a copy of the unchanged ones.
    @_disfavoredOverload
    public mutating func appendReversion<Element: Equatable>(at keyPath: WritableKeyPath<Root, [Element]>) {
        let (previous, current) = versions(at: keyPath)
        guard let node = ArrayDifferenceChange.make(at: keyPath, from: previous, to: current) else { return }
        appendAtRoot(Reversion(node: node))
    }

    /// Appends `reversion`, a change of `Root` itself, at the identity key path made once per
    /// type: in the generic code this is inlined into, the literal `\Root.self` is built at
    /// every evaluation (measured: about 12,000 instructions a recorded step).
    @usableFromInline
    mutating func appendAtRoot(_ reversion: Reversion<Root>) {
        append(reversion, at: selfKeyPath(Root.self))
    }
}

extension Reverter {

    /// Runs `body` on this reverter as an `R`, when it is one, and returns whether it was: how
    /// the library's own walks (the comparison, a history's lending and journaled walks) take
    /// what only they handle. The check compares two types, and folds away wherever the
    /// reverter's type is known.
    @inlinable @inline(__always)
    mutating func asReverter<R: Reverter>(_ type: R.Type, _ body: (inout R) -> Void) -> Bool {
        guard Self.self == R.self else { return false }
        withUnsafeMutablePointer(to: &self) { reverter in
            body(&UnsafeMutableRawPointer(reverter).assumingMemoryBound(to: R.self).pointee)
        }
        return true
    }
}
