/// The changes that take one version of a value back to an earlier one.
///
/// A reversion stores only what changed: the key paths written and, at each, the smallest
/// faithful description of the change. It checks exactly those locations before writing: if
/// any of them no longer holds what the reversion was made from, ``revert(_:)`` throws
/// ``ReversionError/attemptingToRevertWrongVersion`` and leaves the value untouched, even when
/// the reversion writes many paths.
///
/// ```swift
/// var user = User(name: "", imageData: Data())
/// let original = user
/// user.name = "Johnny"
/// let reversion = user.reversion(to: original)
/// try reversion?.revert(&user) // user.name == ""
/// ```
///
/// A reversion is `Sendable` when `Root` is: it holds only key paths into `Root` and values
/// read through them.
public struct Reversion<Root> {

    // `node`, `isInverted` and `direction` are marked though no inlinable body names them: so
    // marked, a release build copies `canRevert` and `revertUnchecked` into the history's
    // specialized undo and redo (without the marks they were calls; callgrind, session 17).

    /// The change, described from the newer version to the older one.
    @usableFromInline let node: any ReversionNode<Root>
    /// Whether this reversion replays the change (older to newer) instead of reverting it.
    @usableFromInline let isInverted: Bool

    @usableFromInline
    init(node: any ReversionNode<Root>, isInverted: Bool = false) {
        self.node = node
        self.isInverted = isInverted
    }

    @usableFromInline
    var direction: ReversionDirection {
        isInverted ? .forward : .backward
    }

    /// Reverts `value` to the version this reversion leads to.
    ///
    /// - Throws: ``ReversionError/attemptingToRevertWrongVersion`` if `value` is not, at the
    ///   locations this reversion writes, the version it was made from. `value` is then unchanged.
    public func revert(_ value: inout Root) throws(ReversionError) {
        guard node.canApply(to: value, direction) else {
            throw .wrongVersion(keyPath: refusedKeyPath(in: value))
        }
        guard node.apply(to: &value, direction) else {
            throw .attemptingToRevertWrongVersion
        }
    }

    /// Reverts `value` without checking first that it holds what this reversion expects: for
    /// the very version it was made from, where the check cannot fail and would only read
    /// every location twice. Returns `false`, `value` unchanged, where ``revert(_:)`` would
    /// throw after its check.
    @usableFromInline
    func revertUnchecked(_ value: inout Root) -> Bool {
        node.apply(to: &value, direction)
    }

    /// Reverts `value`, the very version this reversion was made from, to `target`, the
    /// version it leads to, unchecked as ``revertUnchecked(_:)``; where it replays the change
    /// (inverted), `value` may take `target`'s storage wherever the two then hold the very
    /// same values (see `ReversionNode.advance(_:toward:)`).
    @usableFromInline
    func revertUnchecked(_ value: inout Root, toward target: Root) -> Bool {
        isInverted ? node.advance(&value, toward: target) : node.apply(to: &value, direction)
    }

    /// Whether every element this reversion brings back by identity is absent from `value`
    /// (see `ReversionNode.bringsBackOnlyAbsentIDs(in:_:)`).
    @usableFromInline
    func bringsBackOnlyAbsentIDs(_ value: Root) -> Bool {
        node.bringsBackOnlyAbsentIDs(in: value, direction)
    }

    /// Whether ``revert(_:)`` would accept `value`, without writing.
    @usableFromInline
    func canRevert(_ value: Root) -> Bool {
        node.canApply(to: value, direction)
    }

    /// Where `value` does not hold what this reversion expects, if that can be told.
    func refusedKeyPath(in value: Root) -> String? {
        node.refusedLocation(in: value, direction).map { $0.text(in: Root.self) }
    }

    /// The reversion that undoes this one: applied after it, it restores the newer version.
    ///
    /// Both directions come from the one comparison that made this reversion.
    @usableFromInline
    package var inverted: Reversion {
        Reversion(node: node, isInverted: !isInverted)
    }

    /// The key paths this reversion writes, deepest first within each change.
    ///
    /// Useful for debugging and for history views. A structural change to a collection (an
    /// insert, a remove, a move) is reported at the collection's own key path.
    public var changedKeyPaths: [PartialKeyPath<Root>] {
        var paths: [PartialKeyPath<Root>] = []
        node.appendKeyPaths(to: &paths)
        return paths
    }

    /// This reversion's change, seen from `Parent` through `keyPath`.
    @usableFromInline
    func node<Parent>(at keyPath: WritableKeyPath<Parent, Root>) -> any ReversionNode<Parent> {
        let base: any ReversionNode<Root> = isInverted ? InvertedChange(node) : node
        // The cheap test first: the cast to a constrained existential costs microseconds,
        // and nodes are rerooted on every recorded change.
        if isSelfKeyPath(keyPath), let identity = base as? any ReversionNode<Parent> {
            return identity
        }
        if let rerooted = base.rerooted(at: keyPath) {
            return rerooted
        }
        return KeyPathChange(at: keyPath, child: base)
    }
}

// `@unchecked`: `any ReversionNode<Root>` is not `Sendable`, but every node is a final class
// with only `let` properties (key paths, indices, and values of `Root`'s parts, `Sendable`
// when `Root` is), made whole before the reversion holds it and never written after. A
// `TextBuffer`'s change keeps its bytes in its own object (a `ManagedBuffer`), written only
// by the function that makes it.
extension Reversion: @unchecked Sendable where Root: Sendable {}

extension Reversion: CustomDebugStringConvertible {

    public var debugDescription: String {
        let paths = changedKeyPaths.map { KeyPathName.readable($0) }
        return "Reversion<\(Root.self)>(\(paths.joined(separator: ", ")))"
    }
}
