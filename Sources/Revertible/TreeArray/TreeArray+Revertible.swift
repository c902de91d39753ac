import Foundation

extension TreeArray: Revertible where Element: Identifiable & Versionable {

    /// Returns the changes that turn this tree back into `previous`, or `nil` when the two
    /// are equal: per-element edits by id, and inserted, removed and moved elements, as for an
    /// array of identifiable values.
    ///
    /// The chunks the two versions share are skipped by identity, never read.
    ///
    /// - Complexity: O(log *n*) plus the size of the change when one version was made from
    ///   the other by a few edits (each copying one path of chunks); O(*d*), where *d* is the
    ///   number of elements in chunks the versions do not share, in general.
    @inlinable
    public func reversion(to previous: TreeArray) -> Reversion<TreeArray>? {
        difference(from: previous).reversion
    }

    /// The reversion to `previous`, and the ignored places inside the elements compared (see
    /// `IgnoredProperty`).
    @inlinable
    func difference(from previous: TreeArray) -> (reversion: Reversion<TreeArray>?, ignored: [IgnoredProperty<TreeArray>]) {
        difference(from: previous, at: nil)
    }

    /// The reversion of `Root`, whose tree at `keyPath` (never the identity; `nil` when
    /// `Root` is this tree's type) was `previous` and is now this tree, and the ignored places
    /// inside the elements compared, from this tree.
    @inlinable
    func difference<Root>(
        from previous: TreeArray, at keyPath: WritableKeyPath<Root, TreeArray>?
    ) -> (reversion: Reversion<Root>?, ignored: [IgnoredProperty<TreeArray>]) {
        guard !Node.known(root, equalTo: previous.root) else { return (nil, []) }
        var differ = TreeArrayDiffer<Element>()
        differ.compare(old: previous.root, new: root)
        var ignored: [IgnoredProperty<TreeArray>] = []
        let reversion = differ.makeReversion(at: keyPath, from: previous.root, to: root, ignored: &ignored)
        return (reversion, ignored)
    }

    /// How many nodes the comparison with `previous` visits: the measure of its cost that
    /// tests can assert without timing.
    func nodesVisitedComparing(with previous: TreeArray) -> Int {
        guard !Node.known(root, equalTo: previous.root) else { return 0 }
        var differ = TreeArrayDiffer<Element>()
        differ.compare(old: previous.root, new: root)
        return differ.visitedNodes
    }
}

extension TreeArray where Element: Identifiable & Versionable {

    /// Makes this tree share `other`'s nodes wherever the two hold the very same values, and
    /// returns whether it now shares them all.
    ///
    /// For a history's copy of the present, just advanced to hold what the present holds:
    /// without this, each recorded step would leave the copy a private path of nodes (a leaf
    /// and its branches, about 2 KB at a million elements) where the present's edit wrote.
    /// Equality is not enough to share (a string re-spelled canonically equivalently is
    /// equal, but older steps check its exact bytes): an element is shared only when its
    /// bytes are the same, or, where `edits` wrote it, when its strings written by the edit
    /// hold the same UTF-8 and all its other bytes are the same.
    ///
    /// - Complexity: O(*p* log *n*) for *p* positions where the trees differ, plus the bytes of
    ///   the leaves there.
    @inlinable
    mutating func share(_ other: Node, editedAt edits: IdentifiedArrayEdits<Element>) -> Bool {
        guard root !== other else { return true }
        guard isKnownUniquelyReferenced(&root) else { return false }
        var lookup = TreeArrayEditLookup(edits: edits)
        guard Node.share(root, with: other, start: 0, edits: &lookup) else { return false }
        root = other
        return true
    }
}

/// The edit at each position of the newer tree, looked up only when an element's bytes differ.
@usableFromInline
struct TreeArrayEditLookup<Element: Identifiable & Versionable> {
    @usableFromInline let edits: IdentifiedArrayEdits<Element>
    @usableFromInline var byPosition: [Int: any ReversionNode<Element>]?

    @inlinable
    init(edits: IdentifiedArrayEdits<Element>) {
        self.edits = edits
    }

    @inlinable
    mutating func edit(at position: Int) -> (any ReversionNode<Element>)? {
        if edits.count <= 8 {
            return edits.node(atNewIndex: position)
        }
        if byPosition == nil {
            byPosition = Dictionary(edits.map { ($0.newIndex, $0.node) }, uniquingKeysWith: { $1 })
        }
        return byPosition![position]
    }
}

extension TreeArrayNode where Element: Identifiable & Versionable {

    /// Replaces `node`'s children by `other`'s where they hold the same values, and returns
    /// whether `node` itself now holds exactly what `other` does (so its parent may take
    /// `other` in its place). `node` is uniquely referenced; `start` is its first element's
    /// position in the tree.
    @inlinable
    static func share(_ node: Node, with other: Node, start: Int, edits: inout TreeArrayEditLookup<Element>) -> Bool {
        guard node.height == other.height, node.count == other.count else { return false }
        // The same keys too: the identity index of `node`'s tree, if any, names its keys.
        if node.isLeaf {
            return node.keys == other.keys && node.withElements { mine in
                other.withElements { theirs in sameValues(UnsafeBufferPointer(mine), UnsafeBufferPointer(theirs), start: start, edits: &edits) }
            }
        }
        // Children pair up only where both nodes are cut at the same offsets.
        guard Node.sameEnds(node, other), node.lastKeys == other.lastKeys else { return false }
        var sharesAll = true
        for child in 0 ..< node.width where node.child(child) !== other.child(child) {
            guard node.isChildUnique(child),
                  share(node.child(child), with: other.child(child), start: start + node.start(ofChild: child), edits: &edits)
            else {
                sharesAll = false
                continue
            }
            // Same values: the content, and so the stamp that names it, stays.
            node.setChild(child, other.child(child))
        }
        return sharesAll
    }

    /// Whether two leaves hold the very same values: byte for byte, or, for an element whose
    /// bytes differ, by ``sameValue(_:_:writtenBy:)``.
    @inlinable
    static func sameValues(
        _ mine: UnsafeBufferPointer<Element>,
        _ theirs: UnsafeBufferPointer<Element>,
        start: Int,
        edits: inout TreeArrayEditLookup<Element>
    ) -> Bool {
        guard mine.count == theirs.count else { return false }
        guard let mineBase = mine.baseAddress, let theirsBase = theirs.baseAddress else { return true }
        let (size, stride) = (MemoryLayout<Element>.size, MemoryLayout<Element>.stride)
        if memcmp(mineBase, theirsBase, mine.count * stride) == 0 { return true }
        for offset in mine.indices where memcmp(mineBase + offset, theirsBase + offset, size) != 0 {
            guard sameValue(mineBase + offset, theirsBase + offset, writtenBy: edits.edit(at: start + offset)) else {
                return false
            }
        }
        return true
    }

    /// Whether two elements whose bytes differ hold the very same value.
    ///
    /// The bytes may differ where no property is stored: a copy writes the properties, not
    /// the padding between them (an element inserted by a change is such a copy). So both
    /// are copied over the same background, twice (all zero bits, then all one bits): the
    /// copies agree on both exactly when the two write the same bytes, which makes them the
    /// same value. And where `edit` wrote a string (a stored property, at a known offset),
    /// the strings may hold the same UTF-8 in different storage: those are compared by their
    /// UTF-8 and skipped in the bytes. Anything else is compared by its bytes, which may
    /// refuse equal values, never accept different ones.
    @inlinable
    static func sameValue(_ mine: UnsafePointer<Element>, _ theirs: UnsafePointer<Element>, writtenBy edit: (any ReversionNode<Element>)?) -> Bool {
        var strings: [Int] = []
        if let edit {
            var paths: [PartialKeyPath<Element>] = []
            edit.appendKeyPaths(to: &paths)
            for path in paths where type(of: path).valueType == String.self {
                guard let offset = MemoryLayout<Element>.offset(of: path) else { continue }
                let (left, right) = (UnsafeRawPointer(mine).load(fromByteOffset: offset, as: String.self),
                                     UnsafeRawPointer(theirs).load(fromByteOffset: offset, as: String.self))
                guard left.utf8.elementsEqual(right.utf8) else { return false }
                strings.append(offset)
            }
            strings.sort()
        }
        let (size, stride) = (MemoryLayout<Element>.size, MemoryLayout<Element>.stride)
        // The bytes themselves first, outside the strings compared above: when they agree, so
        // do copies of them over any background, and no copies are needed.
        var from = 0
        var sameBytes = true
        for offset in strings + [size] where sameBytes {
            if offset > from, memcmp(UnsafeRawPointer(mine) + from, UnsafeRawPointer(theirs) + from, offset - from) != 0 {
                sameBytes = false
            }
            from = Swift.max(from, offset + MemoryLayout<String>.size)
        }
        if sameBytes { return true }
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: 2 * stride, alignment: MemoryLayout<Element>.alignment)
        defer { scratch.deallocate() }
        for background: UInt8 in [0, 0xFF] {
            scratch.initializeMemory(as: UInt8.self, repeating: background, count: 2 * stride)
            let left = scratch.bindMemory(to: Element.self, capacity: 2)
            let right = left + 1
            left.initialize(from: mine, count: 1)
            right.initialize(from: theirs, count: 1)
            var same = true
            var from = 0
            for offset in strings + [size] where same {
                if offset > from, memcmp(scratch + from, scratch + stride + from, offset - from) != 0 {
                    same = false
                }
                from = Swift.max(from, offset + MemoryLayout<String>.size)
            }
            left.deinitialize(count: 1)
            right.deinitialize(count: 1)
            guard same else { return false }
        }
        return true
    }
}

extension TreeArray where Element: Identifiable & Versionable {

    /// Whether `newer` holds exactly what this tree would hold after `edits`, a change that
    /// inserts, removes and moves nothing: checked without writing, so a history's copy of
    /// the present can take `newer` whole instead of writing its own path of nodes and then
    /// dropping it for `newer`'s. The same test as ``share(_:editedAt:)``, on each edited
    /// element as it would be after its edit (applied to a copy).
    ///
    /// - Complexity: O(log *n*) per edit, plus the bytes of the leaves that differ.
    @inlinable
    func isEdited(into newer: TreeArray, by edits: IdentifiedArrayEdits<Element>) -> Bool {
        var lookup = TreeArrayEditLookup(edits: edits)
        var verified = 0
        return Node.isEdited(root, into: newer.root, start: 0, edits: &lookup, verified: &verified) && verified == edits.count
    }
}

extension TreeArrayNode where Element: Identifiable & Versionable {

    /// ``TreeArray/isEdited(into:by:)`` below `node`, whose first element is at `start`;
    /// counts in `verified` the edited elements found as their edit would make them.
    @inlinable
    static func isEdited(_ node: Node, into other: Node, start: Int, edits: inout TreeArrayEditLookup<Element>, verified: inout Int) -> Bool {
        if node === other { return true }
        guard node.height == other.height, node.count == other.count else { return false }
        if node.isLeaf {
            guard node.width == other.width else { return false }
            return node.withElements { mine in
                other.withElements { theirs in
                    guard let mineBase = mine.baseAddress, let theirsBase = theirs.baseAddress else { return true }
                    if edits.edits.count <= 8 {
                        return isEditedLeaf(mineBase, theirsBase, width: mine.count, start: start, edits: edits.edits, verified: &verified)
                    }
                    for offset in mine.indices {
                        if let edit = edits.edit(at: start + offset) {
                            guard isEdited(mineBase + offset, into: theirsBase + offset, by: edit) else { return false }
                            verified += 1
                        } else if memcmp(mineBase + offset, theirsBase + offset, MemoryLayout<Element>.size) != 0,
                                  !sameValue(mineBase + offset, theirsBase + offset, writtenBy: nil) {
                            return false
                        }
                    }
                    return true
                }
            }
        }
        guard Node.sameEnds(node, other) else { return false }
        for child in 0 ..< node.width where node.child(child) !== other.child(child) {
            guard Self.isEdited(node.child(child), into: other.child(child), start: start + node.start(ofChild: child), edits: &edits, verified: &verified) else {
                return false
            }
        }
        return true
    }

    /// ``isEdited(_:into:start:edits:verified:)`` for two leaves of `width` elements, with
    /// a few `edits`: the runs between edited elements compared in one `memcmp` each (element
    /// by element only if a run's bytes differ), rather than every element looked up among
    /// the edits and compared on its own.
    @inlinable
    static func isEditedLeaf(
        _ mine: UnsafeMutablePointer<Element>, _ theirs: UnsafeMutablePointer<Element>, width: Int, start: Int,
        edits: IdentifiedArrayEdits<Element>, verified: inout Int
    ) -> Bool {
        var from = 0
        while from < width {
            // The first edit at or after `from` in this leaf (the first one listed, for a
            // position edited twice, as ``IdentifiedArrayEdits/node(atNewIndex:)`` finds).
            var next = width
            var nextEdit: (any ReversionNode<Element>)?
            for edit in edits where edit.newIndex >= start + from && edit.newIndex < start + next {
                next = edit.newIndex - start
                nextEdit = edit.node
            }
            if next > from, memcmp(mine + from, theirs + from, (next - from) * MemoryLayout<Element>.stride) != 0 {
                // Padding may differ where the values do not: element by element, as below.
                for offset in from ..< next where memcmp(mine + offset, theirs + offset, MemoryLayout<Element>.size) != 0 {
                    guard sameValue(mine + offset, theirs + offset, writtenBy: nil) else { return false }
                }
            }
            guard let nextEdit else { return true }
            guard isEdited(mine + next, into: theirs + next, by: nextEdit) else { return false }
            verified += 1
            from = next + 1
        }
        return true
    }

    /// Whether `theirs` is the very value `edit` makes of `mine` (see ``sameValue(_:_:writtenBy:)``).
    @inlinable
    static func isEdited(_ mine: UnsafeMutablePointer<Element>, into theirs: UnsafeMutablePointer<Element>, by edit: any ReversionNode<Element>) -> Bool {
        var edited = mine.pointee
        _ = edit.apply(to: &edited, .forward)
        return withUnsafePointer(to: edited) { edited in
            // The same bytes are the same value: no need to look at what the edit wrote.
            memcmp(edited, theirs, MemoryLayout<Element>.size) == 0 || sameValue(edited, theirs, writtenBy: edit)
        }
    }
}
