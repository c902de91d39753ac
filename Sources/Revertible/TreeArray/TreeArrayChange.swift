/// The changes between two versions of a ``TreeArray`` of identifiable values, by identity:
/// elements inserted, removed and moved, and edits inside elements that kept their identity.
///
/// The same description as an identifiable array's: only inserted and removed elements are
/// stored whole, a move stores two indices and an id, an edit stores the element's own
/// reversion. Indices are positions in the whole tree. Checking and applying cost
/// O(log *n*) per position written, so undo and redo copy one path of chunks per change.
final class TreeArrayChange<Element: Identifiable & Versionable>: ReversionNode {

    typealias Root = TreeArray<Element>
    typealias Edit = IdentifiedArrayEdit<Element>
    typealias Structure = IdentifiedArrayStructure<Element>

    let edits: [Edit]
    let structure: Structure?
    let oldCount: Int
    let newCount: Int

    init(edits: [Edit], structure: Structure?, oldCount: Int, newCount: Int) {
        self.edits = edits
        self.structure = structure
        self.oldCount = oldCount
        self.newCount = newCount
    }

    func canApply(to tree: TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        guard tree.count == (direction == .backward ? newCount : oldCount) else { return false }
        for edit in edits {
            let element = tree[direction == .backward ? edit.newIndex : edit.oldIndex]
            guard element.id == edit.id, edit.node.canApply(to: element, direction) else { return false }
        }
        guard let structure else { return true }
        return (direction == .backward ? structure.new : structure.old).allSatisfy { index, source in
            switch source {
            case let .stored(expected): matches(tree[index], expected)
            case let .moved(_, id): tree[index].id == id
            }
        }
    }

    /// Edits first, at the indices of the current side, so a moved element carries its edit
    /// with it; then the current side's positions are removed (last first) and the target
    /// side's inserted (first first).
    func apply(to tree: inout TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        for edit in edits {
            _ = edit.node.apply(to: &tree[direction == .backward ? edit.newIndex : edit.oldIndex], direction)
        }
        guard let structure else { return true }
        let (current, target) = direction == .backward ? (structure.new, structure.old) : (structure.old, structure.new)
        let placing = target.map { index, source in
            switch source {
            case let .stored(element): (index, element)
            case let .moved(from, _): (index, tree[from])
            }
        }
        for (index, _) in current.reversed() {
            tree.remove(at: index)
        }
        for (index, element) in placing {
            tree.insert(element, at: index)
        }
        return true
    }

    /// Applied forward to the very tree it was made from (as a history advances its own copy
    /// of the present), the result holds `newer`'s elements, so it takes `newer`'s nodes
    /// where they hold the very same values (a recorded step then keeps no node of its own),
    /// and links the rest to them as twins: the next comparison between the two skips them
    /// instead of reading them again.
    func advance(_ tree: inout TreeArray<Element>, toward newer: TreeArray<Element>) -> Bool {
        _ = apply(to: &tree, .forward)
        guard tree.count == newer.count else { return true }
        let shared = TreeArraySharer<Element>.registered?.share(&tree, newer.root, edits) ?? tree.share(newer.root, editedAt: edits)
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

/// The reversion of a tree made of `edits` and `structure`, from the tree rooted at `old` to
/// the tree rooted at `new`: for the comparison, specialized, that found them.
///
/// `share` is ``TreeArray/share(_:editedAt:)`` compiled for `Element` by that comparison; it
/// is kept per element type (see ``TreeArraySharer``), not per change.
@usableFromInline
func treeArrayReversion<Element: Identifiable & Versionable>(
    edits: [IdentifiedArrayEdit<Element>],
    structure: IdentifiedArrayStructure<Element>?,
    from old: TreeArrayNode<Element>,
    to new: TreeArrayNode<Element>,
    share: @escaping TreeArraySharer<Element>.Share
) -> Reversion<TreeArray<Element>> {
    TreeArraySharer.register(share)
    return Reversion(node: TreeArrayChange(edits: edits, structure: structure, oldCount: old.count, newCount: new.count))
}

/// ``TreeArray/share(_:editedAt:)`` compiled for one element type, kept per type.
///
/// A change is applied through the `ReversionNode` protocol, in code not specialized for the
/// element type, where the walk over the leaves costs a metadata lookup for nearly every
/// operation (several microseconds a step). The comparison that makes the change is
/// specialized, so it hands over a closure compiled with it; kept per type (one lock and
/// one lookup a step), not in each change, where it would cost 16 bytes a step for good.
@usableFromInline
final class TreeArraySharer<Element: Identifiable & Versionable>: @unchecked Sendable {
    // Audited: `share` is immutable and captures nothing but the element type; what it
    // writes is the tree passed `inout`, which the caller holds exclusively.

    @usableFromInline typealias Share = (inout TreeArray<Element>, TreeArrayNode<Element>, [IdentifiedArrayEdit<Element>]) -> Bool

    let share: Share

    private init(_ share: @escaping Share) {
        self.share = share
    }

    /// The closure registered for `Element`, if any.
    static var registered: TreeArraySharer? {
        treeArraySharers.withLock { $0[ObjectIdentifier(Element.self)] }.map { unsafeDowncast($0, to: TreeArraySharer.self) }
    }

    static func register(_ share: @escaping Share) {
        let type = ObjectIdentifier(Element.self)
        treeArraySharers.withLock { sharers in
            if sharers[type] == nil { sharers[type] = TreeArraySharer(share) }
        }
    }
}

/// Per element type (by its metadata's identity, which lives as long as the process): its
/// ``TreeArraySharer``.
private let treeArraySharers = Locked<[ObjectIdentifier: AnyObject]>([:])
