/// The changes between two versions of a ``TreeArray`` of identifiable values, by identity:
/// elements inserted, removed and moved, and edits inside elements that kept their identity.
///
/// The same description as an identifiable array's: only inserted and removed elements are
/// stored whole, a move stores two indices and an id, an edit stores the element's own
/// reversion. Indices are positions in the whole tree. Checking and applying cost
/// O(log *n*) per position written, so undo and redo copy one path of chunks per change.
@usableFromInline
final class TreeArrayChange<Element: Identifiable & Versionable>: ReversionNode {

    @usableFromInline typealias Root = TreeArray<Element>
    @usableFromInline typealias Structure = IdentifiedArrayStructure<Element>

    @usableFromInline let edits: IdentifiedArrayEdits<Element>
    @usableFromInline let structure: Structure?
    @usableFromInline let oldCount: Int
    @usableFromInline let newCount: Int

    /// Made in code compiled for `Element` (the comparison, or decoding): `edits` is an enum
    /// whose layout depends on `Element`, which unspecialized code can only build and copy
    /// through its metadata.
    @inlinable
    init(edits: IdentifiedArrayEdits<Element>, structure: Structure?, oldCount: Int, newCount: Int) {
        self.edits = edits
        self.structure = structure
        self.oldCount = oldCount
        self.newCount = newCount
    }

    /// See ``admits(_:_:)``: compiled for the element type once a comparison in
    /// this process registered it, else run generically.
    @usableFromInline
    func canApply(to tree: TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        if let operations = TreeArrayOperations<Element>.registered {
            return operations.admits(tree, self, direction)
        }
        return admits(tree, direction)
    }

    /// See ``TreeArray/apply(_:_:)``: compiled for the element type once a comparison in
    /// this process registered it, else run generically.
    @usableFromInline
    func apply(to tree: inout TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        apply(to: &tree, direction, with: TreeArrayOperations<Element>.registered)
        return true
    }

    /// Applies the change with `operations` when given (looked up once by the caller), else
    /// generically.
    private func apply(to tree: inout TreeArray<Element>, _ direction: ReversionDirection, with operations: TreeArrayOperations<Element>?) {
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
    func advance(_ tree: inout TreeArray<Element>, toward newer: TreeArray<Element>) -> Bool {
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
            tree.linkTwins(to: newer.root, along: writtenPositions)
        }
        return true
    }

    /// The positions in the newer tree where this change writes: the paths whose nodes the
    /// older tree copies when it is advanced to the newer one.
    ///
    /// Plain loops, no key paths: this runs unspecialized on every recorded step, where a
    /// key path's application costs a metadata lookup per element.
    private var writtenPositions: [Int] {
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
    func applySelectively(
        to tree: inout TreeArray<Element>, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
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
                    case let .stored(expected): matches(tree[index], expected)
                    case let .moved(_, id): tree[index].id == id
                    }
                }
            }
        )
    }

    @usableFromInline
    func refusedLocation(in tree: TreeArray<Element>, _ direction: ReversionDirection) -> LocationName? {
        LocationName.refusedElement(of: edits, in: tree, expectedCount: direction == .backward ? newCount : oldCount, direction)
    }

    @usableFromInline
    func appendKeyPaths(to paths: inout [PartialKeyPath<TreeArray<Element>>]) {
        for edit in edits {
            let element: WritableKeyPath<TreeArray<Element>, Element> = \TreeArray<Element>.[edit.newIndex]
            var childPaths: [PartialKeyPath<Element>] = []
            edit.node.appendKeyPaths(to: &childPaths)
            for childPath in childPaths {
                if let path = element.appending(path: childPath) as? PartialKeyPath<TreeArray<Element>> {
                    paths.append(path)
                }
            }
        }
        if structure != nil {
            paths.append(\TreeArray<Element>.self)
        }
    }
}

/// The reversion that `change` makes, for the comparison, specialized, that found it.
///
/// `operations` are those of a change compiled for `Element` by that comparison; they are
/// kept per element type (see ``TreeArrayOperations``), not per change.
@usableFromInline
func treeArrayReversion<Element: Identifiable & Versionable>(
    _ change: TreeArrayChange<Element>,
    operations: () -> TreeArrayOperations<Element>
) -> Reversion<TreeArray<Element>> {
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
            case let .stored(expected): guard matches(tree[index], expected) else { return false }
            case let .moved(_, id): guard tree[index].id == id else { return false }
            }
        }
        return true
    }

    @usableFromInline
    func bringsBackOnlyAbsentIDs(in tree: TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
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
            if removed == nil { removed = Set(current.map(\.index)) }
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
