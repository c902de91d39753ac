import Synchronization

/// A value type that tracks changes through the key paths it registers, much as `Codable`
/// types list their coding keys.
///
/// ```swift
/// struct User: Versionable {
///     var name: String
///     var imageData: Data
///
///     func addReversions(into reverter: inout some Reverter<User>) {
///         reverter.appendReversion(at: \.name)
///         reverter.appendReversion(at: \.imageData)
///     }
/// }
/// ```
///
/// Register every mutable stored property. Two versions of an `Identifiable` value with
/// different ids are treated as a replacement and stored whole; likewise, if two versions
/// differ only in something you did not register, the reversion overwrites the whole value,
/// so reverting restores exactly what was there. Leave a property out on purpose with
/// ``Reverter/ignore(_:)``: a change only there is then no change at all, and undo and redo
/// never write it.
public protocol Versionable: Revertible {

    /// Registers, on `reverter`, the key paths whose changes make up a reversion of this type.
    func addReversions(into reverter: inout some Reverter<Self>)
}

extension Versionable {

    /// Returns the changes that turn this value back into `previous`, or `nil` when the two
    /// are equal.
    ///
    /// Only the registered key paths that differ are stored, each with its old and new value
    /// (or, for collections and nested values, only the part that changed).
    @inlinable
    public func reversion(to previous: Self) -> Reversion<Self>? {
        // Inlinable: the witness a conforming type's module emits is then this comparison
        // compiled for the type, which is how a controller, whose value is only known to be
        // `Revertible`, reaches a specialized comparison (see `recordedDifference`).
        let difference = difference(from: previous)
        if !difference.ignored.isEmpty {
            noteIgnoredPlaces(of: Self.self)
        }
        return difference.node.map { Reversion(node: $0) }
    }

    /// The change from `previous`, and the ignored places passed on the way to it.
    ///
    /// Compares by descending first: at the top of a comparison the caller usually knows the
    /// values differ, and each registered child prunes unchanged subtrees with its own `==`,
    /// so a full `==` here would only repeat that work. It runs only when nothing registered
    /// changed, to tell "equal" from "differs only in unregistered or ignored state".
    @inlinable
    func difference(from previous: Self) -> VersionDifference<Self> {
        guard hasDifferentIdentity(self, previous) else {
            return difference(fromSameIdentity: previous)
        }
        return difference(fromOtherEntity: previous)
    }

    /// The change from `previous`, another entity (a different id): nothing pairs up property
    /// by property, so the whole value is the change; only this type's own ignored properties
    /// are found (by a walk of equal values, which stops at once), and they keep the content
    /// of the value reverted.
    @usableFromInline
    func difference(fromOtherEntity previous: Self) -> VersionDifference<Self> {
        let ignored = ignoredProperties()
        return VersionDifference(node: wholeValueNode(from: previous, ignoring: ignored), ignored: ignored)
    }

    /// The change from `previous`, an element the caller matched to this one by id (as
    /// collections of identifiable values do): the identity check is already made. One pass
    /// over the registered key paths finds the change and the ignored places at any depth.
    @inlinable
    func difference(fromSameIdentity previous: Self) -> VersionDifference<Self> {
        var collector = ReversionCollector(previous: previous, current: self)
        addReversions(into: &collector)
        if let node = collector.makeNode() {
            if collector.usesComputedPaths {
                return VersionDifference(node: restated(node, from: previous), ignored: collector.ignored)
            }
            return VersionDifference(node: node, ignored: collector.ignored)
        }
        guard self != previous else { return VersionDifference(node: nil, ignored: collector.ignored) }
        return VersionDifference(node: wholeValueNode(from: previous, ignoring: collector.ignored), ignored: collector.ignored)
    }

    /// `node`, the change from `previous` found at key paths some of which are computed:
    /// names are needed only to save, so a type that can be saved keeps copies of both versions
    /// (``RestatedChange``), and a type that cannot keeps `node`.
    @usableFromInline
    func restated(_ node: any ReversionNode<Self>, from previous: Self) -> any ReversionNode<Self> {
        guard Self.self is any Encodable.Type else { return node }
        return RestatedChange(node, from: previous, to: self)
    }

    /// The whole old and new value: a replaced identity, or a difference in state no
    /// registered key path covers. Ignored places are neither compared nor written, and a
    /// difference only there is no change at all.
    @usableFromInline
    func wholeValueNode(from previous: Self, ignoring ignored: [IgnoredProperty<Self>]) -> (any ReversionNode<Self>)? {
        guard !ignored.isEmpty else {
            return ValueChange(at: selfKeyPath(Self.self), from: previous, to: self)
        }
        let node = IgnoringValueChange(from: previous, to: self, ignoring: ignored)
        return node.differs ? node : nil
    }
}

/// What one comparison of two versions found: the change, `nil` when nothing versioned
/// differs, and the ignored places it passed (see ``IgnoredProperty``).
@usableFromInline
struct VersionDifference<Root> {
    @usableFromInline let node: (any ReversionNode<Root>)?
    @usableFromInline let ignored: [IgnoredProperty<Root>]

    @usableFromInline
    init(node: (any ReversionNode<Root>)?, ignored: [IgnoredProperty<Root>]) {
        self.node = node
        self.ignored = ignored
    }
}

/// The reversion from `previous` to `value`, and the ignored places at any depth where a
/// history's copy of `value` must take `value`'s content: for a ``Versionable`` value, from
/// the one comparison that finds the reversion; for any other value, none.
///
/// Inlinable, like the controller's record path that calls it: specialized for the value's
/// type, `reversion(to:)` is a direct call to the type's own witness, which for a
/// `Versionable` type is ``Versionable/reversion(to:)`` compiled for it where it conforms.
/// Only the generic comparison returns the ignored places, so a type whose comparisons have
/// passed one takes it (run generically, it looks up metadata at every step); the witness
/// says when a comparison did, and the change is then compared again to list them.
@inlinable
func recordedDifference<Value: Revertible>(_ value: Value, from previous: Value) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]) {
    guard let comparison = versionableComparison(of: Value.self) else {
        return (value.reversion(to: previous), [])
    }
    if !comparison.hasIgnoredPlaces {
        let reversion = value.reversion(to: previous)
        if !comparison.hasIgnoredPlaces { return (reversion, []) }
    }
    return comparison.difference(value, from: previous)
}

/// How the values of a ``Versionable`` type are compared when the caller does not know the
/// type to be one: `nil` for any other type.
@usableFromInline
func versionableComparison<Value>(of type: Value.Type) -> VersionableComparison? {
    versionableComparisons.entry(for: type) {
        (type as? any Versionable.Type).map { VersionableComparison(opener: openerType(for: $0)) }
    }
}

/// Notes that a comparison of `type`'s values passed an ignored place (see
/// ``recordedDifference(_:from:)``); out of line, and rare.
@usableFromInline
func noteIgnoredPlaces<Value: Versionable>(of type: Value.Type) {
    versionableComparison(of: type)?.noteIgnoredPlaces()
}

/// Per ``Versionable`` type, kept for the life of the process: how to compare two values
/// generically, and whether a comparison has passed an ignored place.
@usableFromInline
final class VersionableComparison: Sendable {
    private let opener: any VersionableOpener.Type
    private let ignoredPlacesSeen = Atomic<Bool>(false)

    fileprivate init(opener: any VersionableOpener.Type) {
        self.opener = opener
    }

    /// The generic comparison: the reversion and the ignored places. `Value` is the type this
    /// entry was made for.
    @usableFromInline
    func difference<Value>(_ value: Value, from previous: Value) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]) {
        opener.difference(value, from: previous)
    }

    /// Whether a comparison of this type's values has listed an ignored place: from then on,
    /// every comparison is the generic one, which returns them.
    @usableFromInline
    var hasIgnoredPlaces: Bool { ignoredPlacesSeen.load(ordering: .relaxed) }

    fileprivate func noteIgnoredPlaces() {
        ignoredPlacesSeen.store(true, ordering: .relaxed)
    }
}

/// Compares two values of a ``Versionable`` type known only at run time.
private protocol VersionableOpener: SendableMetatype {
    static func difference<Value>(_ value: Value, from previous: Value) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>])
}

private enum VersionableOpening<Opened: Versionable>: VersionableOpener {
    static func difference<Value>(_ value: Value, from previous: Value) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]) {
        // `Value` is `Opened` (the memo below is keyed by type).
        let difference = versionedDifference(unsafeBitCast(value, to: Opened.self), from: unsafeBitCast(previous, to: Opened.self))
        return unsafeBitCast(difference, to: (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]).self)
    }
}

/// Per type: how to compare it, or `nil` when it is not ``Versionable``. Decided once per
/// type: the dynamic cast costs more than a lookup, and this runs on every recorded change.
private let versionableComparisons = TypeMemo<VersionableComparison?>()

private func openerType<Opened: Versionable>(for _: Opened.Type) -> any VersionableOpener.Type {
    VersionableOpening<Opened>.self
}

/// The reversion from `previous` to `value`, a ``Versionable`` value whose type the caller
/// knows, and the ignored places (see ``recordedDifference(_:from:)``): the comparison then
/// specializes for the type where the caller is compiled. The undoable reducer passes it to
/// the history's `record` and `recordWithoutTracking` (see `History.Comparison`).
@inlinable
package func versionedDifference<Value: Versionable>(_ value: Value, from previous: Value) -> (reversion: Reversion<Value>?, ignored: [IgnoredProperty<Value>]) {
    let difference = value.difference(from: previous)
    return (difference.node.map { Reversion(node: $0) }, difference.ignored)
}

/// Whether two values of an `Identifiable` type (checked at run time) have different ids.
///
/// Whether `Value` is `Identifiable` is decided once per type and remembered: the dynamic
/// cast to `any Identifiable` (a constrained existential) costs microseconds, and this runs on
/// every comparison of a `Versionable` value, in code that is not specialized for its type.
@usableFromInline
func hasDifferentIdentity<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
    guard let comparer = identityComparer(of: lhs) else { return false }
    return withUnsafePointer(to: lhs) { lhs in
        withUnsafePointer(to: rhs) { rhs in
            comparer.haveDifferentIDs(UnsafeRawPointer(lhs), UnsafeRawPointer(rhs))
        }
    }
}

/// Compares the ids of two values of one `Identifiable` type, passed by address.
private protocol IdentityComparer: SendableMetatype {
    static func haveDifferentIDs(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool
}

private enum IDComparer<Value: Identifiable>: IdentityComparer {
    static func haveDifferentIDs(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        lhs.assumingMemoryBound(to: Value.self).pointee.id != rhs.assumingMemoryBound(to: Value.self).pointee.id
    }
}

/// Per type: its comparer, or `nil` when it is not `Identifiable`.
private let identityComparers = TypeMemo<(any IdentityComparer.Type)?>()

private func identityComparer<Value>(of value: Value) -> (any IdentityComparer.Type)? {
    identityComparers.entry(for: Value.self) {
        (value as? any Identifiable).map { comparerType(for: $0) }
    }
}

private func comparerType<Value: Identifiable>(for _: Value) -> any IdentityComparer.Type {
    IDComparer<Value>.self
}
