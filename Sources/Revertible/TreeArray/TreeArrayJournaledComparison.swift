/// The comparison a history makes after a reducer's run whose lent trees the journal vouches
/// for and of which one changed (see `History.journaledChange`): the history's copy already
/// holds the present's trees (`.adopt`), and this walk of the present's registrations is
/// `ReversionCollector`'s, except at a lent tree, where it takes the change the journal
/// described instead of comparing (the two sides hold the same tree there). The step is
/// then the comparison's own: the same nodes in registration order, the same ignored places.
/// It runs even when only the trees changed: the lending walk saw the version before the run,
/// and registrations may depend on what the run changed.
///
/// Whatever would make it differ from comparing the versions before the run makes the walk
/// distrusted, and the history compares those instead: a tree it does not know, a lent tree
/// changed but never reached (registered only under a condition the run changed), or a read
/// (`versions(at:)`, and so `hasChanged(at:)` and `appendOverwriteReversion(at:)`) that
/// could see a changed lent tree in its new version where the comparison would see the old
/// one (a computed key path, or a stored one spanning the tree, such as `\.self`).
@usableFromInline
struct TreeArrayJournaledComparison<Root>: Reverter {

    /// The comparison this walk is, but for the lent trees.
    @usableFromInline var collector: ReversionCollector<Root>
    /// The lent trees, in the order they were lent (at most 64).
    @usableFromInline let trees: [LentTree<Root>]
    /// The changes the journal saw the trees take, in the same order.
    @usableFromInline let nodes: [any ReversionNode<Root>]
    /// Bit `i` set when `trees[i]` changed: its change is the next one of `nodes`.
    @usableFromInline let changed: UInt64
    /// Bit `i` set once the walk reached `trees[i]`.
    @usableFromInline var reached: UInt64 = 0
    /// The nodes of everything but the lent trees, in the order found: what the history's
    /// copy, which holds the trees already, still has to take.
    @usableFromInline var rest: [any ReversionNode<Root>] = []
    /// Set by a read the walk cannot answer as the comparison would. Behind a pointer because
    /// `versions(at:)` cannot mutate the reverter; it lives as long as the walk (see
    /// `History.journaledDifference(of:trees:nodes:changed:)`).
    @usableFromInline let distrust: UnsafeMutablePointer<Bool>

    @inlinable
    init(
        previous: Root, current: Root, trees: [LentTree<Root>], nodes: [any ReversionNode<Root>], changed: UInt64,
        distrust: UnsafeMutablePointer<Bool>
    ) {
        collector = ReversionCollector(previous: previous, current: current)
        self.trees = trees
        self.nodes = nodes
        self.changed = changed
        self.distrust = distrust
    }

    @inlinable
    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value) {
        let offset = MemoryLayout<Root>.offset(of: keyPath)
        if !distrust.pointee, readsChangedTree(at: offset, size: MemoryLayout<Value>.size) {
            distrust.pointee = true
        }
        return collector.versions(at: keyPath, offset: offset)
    }

    /// Whether what is read at `offset` (`size` bytes; `nil`: through a computed key path)
    /// may overlap a lent tree that changed.
    @inlinable
    func readsChangedTree(at offset: Int?, size: Int) -> Bool {
        guard let offset else { return true }
        // A tree is one reference, whatever its element type.
        let treeSize = MemoryLayout<AnyObject>.size
        for index in trees.indices where changed & (1 << index) != 0 {
            let tree = trees[index].offset
            if offset < tree + treeSize, tree < offset + size { return true }
        }
        return false
    }

    @inlinable
    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>) {
        collector.append(reversion, at: keyPath)
        rest.append(collector.lastNode!)
    }

    @inlinable
    mutating func ignore<Value>(_ keyPath: WritableKeyPath<Root, Value>) {
        collector.ignore(keyPath)
    }

    /// Appends the journal's change for the lent tree (or text) at `keyPath`, where the
    /// comparison would append what it finds there.
    @inlinable
    mutating func appendJournaled<Value>(at keyPath: WritableKeyPath<Root, Value>) {
        guard let offset = MemoryLayout<Root>.offset(of: keyPath),
              let index = trees.firstIndex(where: { $0.offset == offset }), reached & (1 << index) == 0
        else {
            distrust.pointee = true
            return
        }
        let bit: UInt64 = 1 << index
        reached |= bit
        if changed & bit != 0 {
            // The changes of the trees before this one come first in `nodes`.
            collector.appendNode(nodes[(changed & (bit - 1)).nonzeroBitCount])
        }
    }

    /// The step, the rest's nodes and the ignored places; `nil` when distrusted, when a
    /// changed tree was not reached, when a change is at a computed key path (the comparison
    /// would restate it: see `Versionable.restated(_:from:)`), or when nothing registered
    /// changed (the comparison then looks at the whole value).
    @inlinable
    func result() -> (node: any ReversionNode<Root>, rest: (any ReversionNode<Root>)?, ignored: [IgnoredProperty<Root>])? {
        guard !distrust.pointee, !collector.usesComputedPaths, changed & ~reached == 0, let node = collector.makeNode() else {
            return nil
        }
        let rest = rest.isEmpty ? nil : rest.count == 1 ? rest[0] : combinedNode(rest)
        return (node, rest, collector.ignored)
    }
}
