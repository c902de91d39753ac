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
    /// The older tree's root when this reversion was made, and its stamp then: applying
    /// forward to exactly that tree, unchanged, gives exactly the newer tree's elements.
    private let source: ObjectIdentifier
    private let sourceStamp: UInt64
    /// The newer tree's root, whose nodes the older tree takes, or links its own to as twins,
    /// after such an application (see ``TreeArrayNode/twinID``). Weak, so that the history
    /// never keeps a version alive.
    private weak var target: TreeArrayNode<Element>?
    /// The newer root's stamp then: changed, the newer tree is no longer that version.
    private let targetStamp: UInt64

    init(edits: [Edit], structure: Structure?, from old: TreeArrayNode<Element>, to new: TreeArrayNode<Element>) {
        self.edits = edits
        self.structure = structure
        self.oldCount = old.count
        self.newCount = new.count
        self.source = ObjectIdentifier(old)
        self.sourceStamp = old.stamp
        self.target = new
        self.targetStamp = new.stamp
    }

    /// A change read back from a saved reversion: it was made from no tree of this process,
    /// so it never links twins (no root is a metatype, and there is no target).
    init(edits: [Edit], structure: Structure?, oldCount: Int, newCount: Int) {
        self.edits = edits
        self.structure = structure
        self.oldCount = oldCount
        self.newCount = newCount
        self.source = ObjectIdentifier(TreeArrayChange.self)
        self.sourceStamp = 0
        self.target = nil
        self.targetStamp = 0
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
    ///
    /// Applied forward to the very tree it was made from (as a history advances its own copy
    /// of the current version), the result holds the newer tree's elements, so it takes the
    /// newer tree's nodes where they hold the very same values (a recorded step then keeps
    /// no node of its own), and links the rest to them as twins: the next comparison between
    /// the two skips them instead of reading them again.
    func apply(to tree: inout TreeArray<Element>, _ direction: ReversionDirection) -> Bool {
        let linkable = direction == .forward && ObjectIdentifier(tree.root) == source && tree.root.stamp == sourceStamp
        defer {
            if linkable, let target, target.stamp == targetStamp, target.count == tree.count {
                let shared = TreeArraySharer<Element>.registered?.share(&tree, target, edits) ?? tree.share(target, editedAt: edits)
                if !shared { tree.linkTwins(to: target, along: writtenPositions) }
            }
        }
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
    return Reversion(node: TreeArrayChange(edits: edits, structure: structure, from: old, to: new))
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
