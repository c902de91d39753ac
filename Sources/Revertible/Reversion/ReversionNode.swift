/// Which way a change is applied.
@usableFromInline
enum ReversionDirection: Sendable {
    /// From the newer version to the older one (undo).
    case backward
    /// From the older version to the newer one (redo).
    case forward

    var reversed: ReversionDirection {
        self == .backward ? .forward : .backward
    }
}

/// One kind of change, stored in both directions so one comparison serves undo and redo: the
/// nodes a ``Reversion`` is made of. Each kind lives in `Changes/`, one per file.
///
/// Nodes are immutable. `canApply` reads only the locations the node writes, so checking costs
/// the size of the change, never the size of the value.
@usableFromInline
protocol ReversionNode<Root>: AnyObject {
    associatedtype Root

    /// Whether `value` holds, at every location this node writes, what it expects to replace.
    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool

    /// Writes the change. Call only after `canApply` returned `true` for the same value.
    ///
    /// Returns `false`, with `value` unchanged, only when a node made of several changes finds
    /// that an earlier one of them invalidated a later one (overlapping key paths).
    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool

    /// Applies the change forward to `value`, which must be the very version it was made
    /// from, given `newer`, the version it was made to: as a history advances its own copy of
    /// the present. A node may then let `value` share `newer`'s storage where the two hold
    /// the very same values, so the copy keeps nothing of its own. Returns what `apply`
    /// returns.
    func advance(_ value: inout Root, toward newer: Root) -> Bool

    /// The same change seen from `Parent` through `keyPath`, without a wrapping node, or `nil`
    /// when this node cannot be re-rooted.
    func rerooted<Parent>(at keyPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)?

    /// Appends the key paths this node writes.
    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>])

    /// The location where `value` does not hold what this node expects, for the error's
    /// message; `nil` when it cannot be told. Called only after `canApply` refused.
    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName?

    /// Applies the change wherever `value` holds what it expects, and, at each location that
    /// holds something else, appends a conflict and acts by `policy` (never ``ConflictPolicy/refuse``,
    /// which the caller handles). A location is the smallest unit the change can tell apart: a
    /// property, an element found by identity, a dictionary key. Never fails.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    )

    /// Whether every element this change brings back by identity (an undone removal) is
    /// absent from `value`. Among other writers, one may have made an element with the same
    /// id while keeping what `canApply` reads; bringing ours back would make the id appear
    /// twice. Asked only where others write, since a history's own versions never hold the
    /// id already, and the answer reads the whole collection.
    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool
}

extension ReversionNode {

    /// Most changes bring back no element by identity.
    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool {
        true
    }

    /// A change that cannot be divided is one location: applied whole, or one conflict.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        if canApply(to: value, direction), apply(to: &value, direction) { return }
        conflicts.append(NodeConflict(location: refusedLocation(in: value, direction) ?? .root))
    }

    /// The selective apply of a change that is one location but cannot be written over
    /// blindly (a run of a string, a positional array): applied whole where `canApply`
    /// agrees; else the one conflict `conflict` tells from the value found, and, under
    /// ``ConflictPolicy/overwrite``, whatever `overwrite` finds it can still write.
    ///
    /// Nothing is computed before `canApply`: inside a collection's selective apply, this is
    /// the path of every element change that still applies.
    @inline(__always)
    func applyAsOneLocation(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict],
        conflict: (Root) -> NodeConflict,
        overwrite: (inout Root) -> Void
    ) {
        if canApply(to: value, direction) {
            _ = apply(to: &value, direction)
            return
        }
        conflicts.append(conflict(value))
        if policy == .overwrite {
            overwrite(&value)
        }
    }

    /// Most changes have no storage to share: applied forward, as always.
    func advance(_ value: inout Root, toward newer: Root) -> Bool {
        apply(to: &value, .forward)
    }

    /// A node that writes one location refuses there.
    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        var paths: [PartialKeyPath<Root>] = []
        appendKeyPaths(to: &paths)
        return paths.count == 1 ? LocationName(paths[0]) : nil
    }

    func rerooted<Parent>(at keyPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        nil
    }
}

/// Tests equality the way a reversion checks a location: `==`, except that a value that is not
/// equal to itself (a NaN) matches another such value, so NaNs can be reverted.
@inlinable @inline(__always)
func matches<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs || (lhs != lhs && rhs != rhs)
}

/// Tests a value a reversion stored whole (an element it inserts or removes, a value it
/// replaces) against `found`, the one at its place: ``matches(_:_:)``, or, for a
/// ``Versionable`` type, equal in everything it versions. The places such a type ignores
/// (``Reverter/ignore(_:)``, at any depth) may have changed since the step was made, with no
/// step, as ignoring promises; they are no conflict, and no damage when a saved history is
/// read.
@inlinable @inline(__always)
func matchesStored<Value: Equatable>(_ found: Value, _ expected: Value) -> Bool {
    matches(found, expected) || differsOnlyInIgnoredPlaces(found, expected)
}

/// Whether `found` and `expected`, unequal, are values of a ``Versionable`` type whose
/// comparison finds no change: they differ only where the type ignores. Out of line: asked
/// only once `==` said no, which a step that applies never reaches.
@usableFromInline
func differsOnlyInIgnoredPlaces<Value>(_ found: Value, _ expected: Value) -> Bool {
    guard let comparison = versionableComparison(of: Value.self) else {
        // An optional stores its wrapped value whole when it is set from or to `nil`.
        return (found as? any OptionalStoredValue)?.wrappedValueDiffersOnlyInIgnoredPlaces(from: expected) ?? false
    }
    return comparison.difference(found, from: expected).reversion == nil
}

/// An optional, seen by ``differsOnlyInIgnoredPlaces(_:_:)`` without knowing its wrapped type.
private protocol OptionalStoredValue {
    func wrappedValueDiffersOnlyInIgnoredPlaces(from expected: Any) -> Bool
}

extension Optional: OptionalStoredValue {
    fileprivate func wrappedValueDiffersOnlyInIgnoredPlaces(from expected: Any) -> Bool {
        guard let found = self, let expected = expected as? Wrapped else { return false }
        return differsOnlyInIgnoredPlaces(found, expected)
    }
}
