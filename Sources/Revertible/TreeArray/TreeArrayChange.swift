/// The changes between two versions of a ``TreeArray`` of identifiable values, by identity:
/// elements inserted, removed and moved, and edits inside elements that kept their identity.
///
/// The same description as an identifiable array's: only inserted and removed elements are
/// stored whole, a move stores two indices and an id, an edit stores the element's own
/// reversion. Indices are positions in the whole tree. Checking and applying cost
/// O(log *n*) per position written, so undo and redo copy one path of chunks per change.
///
/// What changed, not where the tree is: a reversion holds the subclass
/// ``TreeArrayChangeNode``, which adds the key path to the tree. The operations compiled for
/// the element type (``TreeArrayOperations``) take this class, so one set of them serves a
/// tree of that element type wherever it sits.
@usableFromInline
class TreeArrayChange<Element: Identifiable & Versionable> {

    @usableFromInline typealias Tree = TreeArray<Element>
    @usableFromInline typealias Structure = IdentifiedArrayStructure<Element>

    @usableFromInline let edits: IdentifiedArrayEdits<Element>
    @usableFromInline let structure: Structure?
    @usableFromInline let oldCount: Int

    /// The count of the newer version: every position outside `structure` pairs with one on
    /// the other side (checked when read back, see `IdentifiedChangeContent.inconsistency()`).
    ///
    /// Computed, not stored: with the node's key path, a stored count would take the object
    /// past its 112-byte malloc block into the next (128), 16 bytes a step.
    @inlinable
    final var newCount: Int {
        guard let structure else { return oldCount }
        return oldCount - structure.old.count + structure.new.count
    }

    /// Made in code compiled for `Element` (the comparison, or decoding): `edits` is an enum
    /// whose layout depends on `Element`, which unspecialized code can only build and copy
    /// through its metadata.
    @inlinable
    init(edits: IdentifiedArrayEdits<Element>, structure: Structure?, oldCount: Int, newCount: Int) {
        self.edits = edits
        self.structure = structure
        self.oldCount = oldCount
        assert(self.newCount == newCount, "the counts do not agree with the positions")
    }

    /// See ``admits(_:_:)``: compiled for the element type once a comparison in
    /// this process registered it, else run generically.
    @usableFromInline
    final func canApply(toTree tree: Tree, _ direction: ReversionDirection) -> Bool {
        if let operations = TreeArrayOperations<Element>.registered {
            return operations.admits(tree, self, direction)
        }
        return admits(tree, direction)
    }

    /// See ``TreeArray/apply(_:_:)``: compiled for the element type once a comparison in
    /// this process registered it, else run generically.
    @usableFromInline
    final func apply(toTree tree: inout Tree, _ direction: ReversionDirection) {
        apply(to: &tree, direction, with: TreeArrayOperations<Element>.registered)
    }

    /// Applies the change with `operations` when given (looked up once by the caller), else
    /// generically.
    private final func apply(to tree: inout Tree, _ direction: ReversionDirection, with operations: TreeArrayOperations<Element>?) {
        if let operations {
            operations.apply(&tree, self, direction)
        } else {
            tree.apply(self, direction)
        }
    }

    /// Applied forward to the very tree it was made from (as a history advances its own copy
    /// of the present), the result holds `newer`'s elements, so it takes `newer`'s nodes
    /// where they hold the very same values (a recorded step then keeps no node of its own),
    /// and links the rest to them as twins: the next comparison between the two skips them
    /// instead of reading them again.
    @usableFromInline
    final func advance(tree: inout Tree, toward newer: Tree) -> Bool {
        let operations = TreeArrayOperations<Element>.registered
        // Edits alone (the common step): when `newer` is exactly what they would make, take
        // it whole, without writing a path of nodes only to drop it for `newer`'s.
        if structure == nil, tree.count == newer.count,
           operations?.isEdited(tree, newer, self) ?? tree.isEdited(into: newer, by: edits) {
            tree = newer
            return true
        }
        apply(to: &tree, .forward, with: operations)
        guard tree.count == newer.count else { return true }
        let shared = operations?.share(&tree, newer.root, self) ?? tree.share(newer.root, editedAt: edits)
        if !shared {
            tree.linkTwins(to: newer, along: writtenPositions)
        }
        return true
    }

    /// The positions in the newer tree where this change writes: the paths whose nodes the
    /// older tree copies when it is advanced to the newer one.
    ///
    /// Plain loops, no key paths: this runs unspecialized on every recorded step, where a
    /// key path's application costs a metadata lookup per element.
    private final var writtenPositions: [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(edits.count + (structure.map { $0.new.count + $0.old.count } ?? 0))
        for edit in edits {
            positions.append(edit.newIndex)
        }
        if let structure {
            for (index, _) in structure.new { positions.append(index) }
            for (index, _) in structure.old { positions.append(index) }
        }
        return positions
    }

    /// Each element is a location found by its id (see ``IdentifiedSelective``), through the
    /// tree's identity index, so other writers' inserts, removals and moves elsewhere in the
    /// tree are no conflict.
    @usableFromInline
    final func applySelectively(
        toTree tree: inout Tree, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        let backward = direction == .backward
        IdentifiedSelective.apply(
            edits: edits, structure: structure, to: &tree, direction, onConflict: policy, conflicts: &conflicts,
            locate: { tree, id in tree.index(id: id) },
            rewrite: { tree, removing, placing in
                for index in removing.reversed() {
                    tree.remove(at: index)
                }
                for (index, element) in placing {
                    tree.insert(element, at: index)
                }
            },
            strictStructure: { tree in
                guard let structure = self.structure else { return true }
                guard tree.count == (backward ? self.newCount : self.oldCount) else { return false }
                return (backward ? structure.new : structure.old).allSatisfy { index, source in
                    switch source {
                    case let .stored(expected): matchesStored(tree[index], expected)
                    case let .moved(_, id): tree[index].id == id
                    }
                }
            }
        )
    }

    @usableFromInline
    final func refusedLocation(inTree tree: Tree, _ direction: ReversionDirection) -> LocationName? {
        LocationName.refusedElement(of: edits, in: tree, expectedCount: direction == .backward ? newCount : oldCount, direction)
    }

    @usableFromInline
    final func appendKeyPaths(ofTree paths: inout [PartialKeyPath<Tree>]) {
        for edit in edits {
            let element: WritableKeyPath<Tree, Element> = \Tree.[edit.newIndex]
            var childPaths: [PartialKeyPath<Element>] = []
            edit.node.appendKeyPaths(to: &childPaths)
            for childPath in childPaths {
                if let path = element.appending(path: childPath) as? PartialKeyPath<Tree> {
                    paths.append(path)
                }
            }
        }
        if structure != nil {
            paths.append(\Tree.self)
        }
    }
}

/// A ``TreeArrayChange`` as a node of a reversion of `Root`, whose tree is at `keyPath`.
///
/// One object a step: the key path's own node around the tree's change would be a second
/// heap block (48 bytes) kept as long as the history keeps the step, while the key path
/// fits in the change's 112-byte block. Saved exactly as that pair was (see its coding).
@usableFromInline
final class TreeArrayChangeNode<Root, Element: Identifiable & Versionable>: TreeArrayChange<Element>, ReversionNode {

    /// Where the tree is in `Root`; `nil` when `Root` is the tree itself (then no key path is
    /// applied at all).
    @usableFromInline let keyPath: WritableKeyPath<Root, TreeArray<Element>>?

    /// A change of the tree at `keyPath`, never the identity, or, when `nil`, of `Root`
    /// itself, which must then be the tree.
    @inlinable
    init(
        at keyPath: WritableKeyPath<Root, TreeArray<Element>>?,
        edits: IdentifiedArrayEdits<Element>, structure: Structure?, oldCount: Int, newCount: Int
    ) {
        self.keyPath = keyPath
        super.init(edits: edits, structure: structure, oldCount: oldCount, newCount: newCount)
        precondition(self.keyPath != nil || Root.self == Tree.self, "a tree array change rooted at \(Root.self) without a key path")
    }

    /// `change` seen from `Root` through `keyPath`.
    private init(at keyPath: WritableKeyPath<Root, TreeArray<Element>>, content change: TreeArrayChange<Element>) {
        self.keyPath = isSelfKeyPath(keyPath) ? nil : keyPath
        super.init(edits: change.edits, structure: change.structure, oldCount: change.oldCount, newCount: change.newCount)
    }

    /// The tree in `value`.
    @inline(__always)
    private func tree(in value: Root) -> Tree {
        if let keyPath {
            return value[keyPath: keyPath]
        }
        // `Root` is `Tree` (checked when made).
        return withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: Tree.self) }
    }

    /// Runs `body` on the tree in `value`, in place: through the key path, which mutates
    /// copy-on-write storage that only `value` references without copying it.
    @inline(__always)
    private func withTree<Result>(in value: inout Root, _ body: (inout Tree) -> Result) -> Result {
        if let keyPath {
            return body(&value[keyPath: keyPath])
        }
        // `Root` is `Tree` (checked when made).
        return withUnsafeMutablePointer(to: &value) { root in
            root.withMemoryRebound(to: Tree.self, capacity: 1) { body(&$0.pointee) }
        }
    }

    @usableFromInline
    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        canApply(toTree: tree(in: value), direction)
    }

    @usableFromInline
    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        withTree(in: &value) { apply(toTree: &$0, direction) }
        return true
    }

    @usableFromInline
    func advance(_ value: inout Root, toward newer: Root) -> Bool {
        let newerTree = tree(in: newer)
        return withTree(in: &value) { advance(tree: &$0, toward: newerTree) }
    }

    @usableFromInline
    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool {
        bringsBackOnlyAbsentIDs(inTree: tree(in: value), direction)
    }

    /// Conflicts are named inside the tree's key path, as a key path's node names its child's.
    @usableFromInline
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        guard let keyPath else {
            withTree(in: &value) { applySelectively(toTree: &$0, direction, onConflict: policy, conflicts: &conflicts) }
            return
        }
        var inner: [NodeConflict] = []
        applySelectively(toTree: &value[keyPath: keyPath], direction, onConflict: policy, conflicts: &inner)
        let location = LocationName(keyPath)
        conflicts += inner.map { $0.inside(location) }
    }

    @usableFromInline
    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        let inner = refusedLocation(inTree: tree(in: value), direction)
        guard let keyPath else { return inner }
        return LocationName(keyPath) + (inner ?? .root)
    }

    @usableFromInline
    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        var treePaths: [PartialKeyPath<Tree>] = []
        appendKeyPaths(ofTree: &treePaths)
        for treePath in treePaths {
            let path = keyPath.map { $0.appending(path: treePath) } ?? treePath
            if let path = path as? PartialKeyPath<Root> {
                paths.append(path)
            }
        }
    }

    /// Only a change of a whole tree moves: one at a key path is already where it belongs.
    @usableFromInline
    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard keyPath == nil, let path = parentPath as? WritableKeyPath<Parent, Tree> else { return nil }
        return TreeArrayChangeNode<Parent, Element>(at: path, content: self)
    }
}

/// The reversion of `Root` whose tree at `keyPath` (`nil`: `Root` is the tree) took `edits`
/// and `structure`, for the comparison or the journal that found them, specialized: the
/// operations are compiled here, for `Element` (see ``TreeArrayOperations``).
@inlinable
func treeArrayReversion<Root, Element: Identifiable & Versionable>(
    at keyPath: WritableKeyPath<Root, TreeArray<Element>>?,
    edits: [IdentifiedArrayEdit<Element>],
    structure: IdentifiedArrayStructure<Element>?,
    oldCount: Int,
    newCount: Int
) -> Reversion<Root> {
    let change = TreeArrayChangeNode(
        at: keyPath, edits: IdentifiedArrayEdits(edits), structure: structure, oldCount: oldCount, newCount: newCount
    )
    return treeArrayReversion(change) {
        TreeArrayOperations(
            admits: { tree, change, direction in change.admits(tree, direction) },
            apply: { tree, change, direction in tree.apply(change, direction) },
            share: { tree, other, change in tree.share(other, editedAt: change.edits) },
            isEdited: { tree, newer, change in tree.isEdited(into: newer, by: change.edits) }
        )
    }
}

/// The reversion that `change` makes, for the comparison, specialized, that found it.
///
/// `operations` are those of a change compiled for `Element` by that comparison; they are
/// kept per element type (see ``TreeArrayOperations``), not per change.
@usableFromInline
func treeArrayReversion<Root, Element: Identifiable & Versionable>(
    _ change: TreeArrayChangeNode<Root, Element>,
    operations: () -> TreeArrayOperations<Element>
) -> Reversion<Root> {
    TreeArrayOperations.register(operations)
    return Reversion(node: change)
}

/// What a ``TreeArrayChange`` does to a tree, compiled for one element type, kept per type.
///
/// A change is applied through the `ReversionNode` protocol, in code not specialized for the
/// element type, where walking and copying a path of nodes costs a metadata lookup for
/// nearly every operation (microseconds a step). The comparison that makes a change is
/// specialized, so it hands over closures compiled with it; kept per type (one lock and one
/// lookup a change applied), not in each change, where they would cost memory every step.
@usableFromInline
final class TreeArrayOperations<Element: Identifiable & Versionable>: @unchecked Sendable {
    // Audited: the closures are immutable and capture nothing but the element type; what
    // they write is the tree passed `inout`, which the caller holds exclusively.

    // Each takes the change whole: the closures read its fields in code compiled for
    // `Element`, where passing its edits from unspecialized code would copy them generically.
    @usableFromInline typealias Admits = (TreeArray<Element>, TreeArrayChange<Element>, ReversionDirection) -> Bool
    @usableFromInline typealias Apply = (inout TreeArray<Element>, TreeArrayChange<Element>, ReversionDirection) -> Void
    @usableFromInline typealias Share = (inout TreeArray<Element>, TreeArrayNode<Element>, TreeArrayChange<Element>) -> Bool
    @usableFromInline typealias IsEdited = (TreeArray<Element>, TreeArray<Element>, TreeArrayChange<Element>) -> Bool

    /// ``TreeArrayChange/admits(_:_:)``.
    let admits: Admits
    /// ``TreeArray/apply(_:_:)``.
    let apply: Apply
    /// ``TreeArray/share(_:editedAt:)``.
    let share: Share
    /// ``TreeArray/isEdited(into:by:)``.
    let isEdited: IsEdited

    @usableFromInline
    init(admits: @escaping Admits, apply: @escaping Apply, share: @escaping Share, isEdited: @escaping IsEdited) {
        self.admits = admits
        self.apply = apply
        self.share = share
        self.isEdited = isEdited
    }

    /// The operations registered for `Element`, if any.
    static var registered: TreeArrayOperations? {
        treeArrayOperations.entry(for: Element.self).map { unsafeDowncast($0, to: TreeArrayOperations.self) }
    }

    /// Registers the operations `make` returns, unless `Element` has some.
    static func register(_ make: () -> TreeArrayOperations) {
        _ = treeArrayOperations.entry(for: Element.self, making: make)
    }
}

/// Per element type: its ``TreeArrayOperations``.
private let treeArrayOperations = TypeMemo<AnyObject & Sendable>()

extension TreeArrayChange {

    /// Whether `tree` can take this change in `direction`: the count, each edited element's
    /// id and content, and each position the structure replaces hold what the change expects.
    @inlinable
    func admits(_ tree: TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        let backward = direction == .backward
        guard tree.count == (backward ? newCount : oldCount) else { return false }
        for edit in edits {
            let element = tree[backward ? edit.newIndex : edit.oldIndex]
            guard element.id == edit.id, edit.node.canApply(to: element, direction) else { return false }
        }
        guard let structure else { return true }
        for (index, source) in backward ? structure.new : structure.old {
            switch source {
            case let .stored(expected): guard matchesStored(tree[index], expected) else { return false }
            case let .moved(_, id): guard tree[index].id == id else { return false }
            }
        }
        return true
    }

    @usableFromInline
    final func bringsBackOnlyAbsentIDs(inTree tree: TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        guard let structure else { return true }
        let (current, target) = direction == .backward ? (structure.new, structure.old) : (structure.old, structure.new)
        return placesNoPresentID(target, in: tree, removing: current)
    }

    /// Whether the elements `target` brings back from storage are absent from what stays of
    /// `tree`, asking the identity index, and only when the change brings elements back.
    @usableFromInline
    func placesNoPresentID(
        _ target: [(index: Int, source: IdentifiedArraySource<Element>)], in tree: TreeArray<Element>,
        removing current: [(index: Int, source: IdentifiedArraySource<Element>)]
    ) -> Bool {
        var removed: Set<Int>?
        for (_, source) in target {
            guard case let .stored(element) = source, let found = tree.index(id: element.id) else { continue }
            if removed == nil { removed = Set(current.map { $0.index }) }
            guard removed!.contains(found) else { return false }
            // Ours is one of the elements this change removes; another of that id may follow.
            for index in (found + 1)..<tree.count where tree[index].id == element.id && !removed!.contains(index) {
                return false
            }
        }
        return true
    }
}

extension TreeArray where Element: Identifiable & Versionable {

    /// Applies `change` in `direction`.
    ///
    /// Edits first, at the indices of the current side, so a moved element carries its edit
    /// with it; then the current side's positions are removed (last first) and the target
    /// side's inserted (first first).
    @inlinable
    mutating func apply(_ change: TreeArrayChange<Element>, _ direction: ReversionDirection) {
        let backward = direction == .backward
        for edit in change.edits {
            _ = edit.node.apply(to: &self[backward ? edit.newIndex : edit.oldIndex], direction)
        }
        guard let structure = change.structure else { return }
        let (current, target) = backward ? (structure.new, structure.old) : (structure.old, structure.new)
        var placing: [(index: Int, element: Element)] = []
        placing.reserveCapacity(target.count)
        for (index, source) in target {
            switch source {
            case let .stored(element): placing.append((index, element))
            case let .moved(from, _): placing.append((index, self[from]))
            }
        }
        for (index, _) in current.reversed() {
            remove(at: index)
        }
        for (index, element) in placing {
            insert(element, at: index)
        }
    }
}
