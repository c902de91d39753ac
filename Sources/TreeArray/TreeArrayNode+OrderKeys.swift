// Order keys of a tree node; the node's layout and header are in TreeArrayNode.swift.

extension TreeArrayNode {

    /// Keys run from 1 to `UInt64.max - 1`; `0` and `UInt64.max` stand for "before the first"
    /// and "after the last".
    @inlinable
    static var keyGap: UInt64 { 1 << 32 }

    /// A key strictly between `lower` and `upper`, or `nil` when none is left. At either end
    /// of the tree the key steps by a fixed gap, so appending or prepending keeps room for
    /// billions more; between two keys it takes the middle.
    @inlinable @inline(__always)
    static func key(between lower: UInt64, and upper: UInt64) -> UInt64? {
        let room = upper &- lower
        guard room >= 2 else { return nil }
        if upper == .max { return lower + Swift.min(keyGap, room / 2) }
        if lower == 0 { return upper - Swift.min(keyGap, room / 2) }
        return lower + room / 2
    }

    /// The keys a tree built from `count` elements gives them: evenly spaced, starting from
    /// the middle of the key space.
    @inlinable
    static func initialKeySpacing(count: Int) -> UInt64 {
        count < (1 << 30) ? keyGap : (UInt64(1) << 63) / UInt64(count + 1)
    }

    /// The spacing a subtree of `height` must get to be relabeled in place; a subtree that
    /// cannot leaves the relabeling to its parent. Growing with height, so that the work of
    /// relabeling a subtree pays for many insertions before it runs out again (the root
    /// always relabels).
    @inlinable
    static func minimumRelabelSpacing(height: Int) -> UInt64 {
        UInt64(1) << UInt64(Swift.min(40, 8 * (height + 1)))
    }

    /// Spreads the keys of this subtree evenly between `lower` and `upper` (exclusive), when
    /// that leaves at least `minimum` between neighbours; `identities` learns each new key.
    /// Returns whether it did.
    @inlinable
    func relabel(between lower: UInt64, and upper: UInt64, minimum: UInt64, identities: inout TreeArrayIdentities<Element>?) -> Bool {
        let spacing = (upper - lower) / UInt64(count + 2)
        guard spacing >= Swift.max(minimum, 2) else { return false }
        var next = lower
        relabel(next: &next, spacing: spacing, identities: &identities)
        return true
    }

    @inlinable
    func relabel(next: inout UInt64, spacing: UInt64, identities: inout TreeArrayIdentities<Element>?) {
        if isLeaf {
            withUnsafeMutablePointers { header, tail in
                let elements = Node.elements(in: tail)
                for position in header.pointee.keys.indices {
                    next += spacing
                    identities?.rekey(elements[position], from: header.pointee.keys[position], to: next)
                    header.pointee.keys[position] = next
                }
            }
            return
        }
        for position in 0 ..< width {
            makeChildUnique(position)
            let child = child(position)
            child.relabel(next: &next, spacing: spacing, identities: &identities)
            updateKeys { $0[position] = child.lastKey }
        }
    }

    /// The position of the element holding `key` in this subtree, if any.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    func position(ofKey key: UInt64) -> Int? {
        var node = Unmanaged.passUnretained(self)
        var position = 0
        while true {
            let step: (found: Bool, offset: Int, next: Unmanaged<Node>?) = node._withUnsafeGuaranteedRef { node in
                node.withUnsafeMutablePointers { header, tail in
                    let keys = header.pointee.keys
                    var low = 0
                    var high = keys.count
                    while low < high {
                        let middle = (low + high) / 2
                        if keys[middle] < key { low = middle + 1 } else { high = middle }
                    }
                    if header.pointee.height == 0 {
                        return (low < keys.count && keys[low] == key, low, nil)
                    }
                    guard low < header.pointee.width else { return (false, 0, nil) }
                    let next = UnsafeMutableRawPointer(Node.children(in: tail) + low).load(as: Unmanaged<Node>.self)
                    return (false, Node.ends(in: tail)[low - 1], next)
                }
            }
            position += step.offset
            guard let next = step.next else { return step.found ? position : nil }
            node = next
        }
    }

    /// The offset in this subtree where child `child` starts.
    @inlinable @inline(__always)
    package func start(ofChild child: Int) -> Int {
        end(child - 1)
    }

    /// The child holding the element at `index` (`0 ..< count`), and the element's index
    /// within that child.
    @inlinable @inline(__always)
    func child(containing index: Int) -> (child: Int, offset: Int) {
        withUnsafeMutablePointers { header, tail in
            Node.search(Node.ends(in: tail), count: header.pointee.width, for: index)
        }
    }

    /// The child of a branch whose `count` running ends (at least one) hold the element at
    /// `index`, and the element's index within that child.
    @inlinable @inline(__always)
    static func search(_ ends: UnsafeMutablePointer<Int>, count: Int, for index: Int) -> (child: Int, offset: Int) {
        // A binary search with a fixed number of steps for a width and no branch on the
        // data (the compiler makes the choice a conditional move): a misprediction would
        // discard the loads the processor has started for the lookups after this one, and a
        // search of few instructions lets it run several lookups ahead.
        var base = 0
        var remaining = count
        while remaining > 1 {
            let half = remaining &>> 1
            // All ones when that end is above `index` (the sign of the difference), else zero:
            // arithmetic, which the compiler cannot turn back into a branch.
            let above = (index &- ends[base &+ half &- 1]) &>> 63
            base &+= half & ~above
            remaining &-= half
        }
        return (base, index &- ends[base &- 1])
    }

    /// The child of a branch holding the element at `index` (`0 ..< count`), and the
    /// element's index within that child: ``search(_:count:for:)`` for the read path.
    ///
    /// Counts the ends at most `index`, the counts added as numbers, never chosen by a
    /// condition: the compiler turns a condition on a loaded value into a branch, whose
    /// misprediction (here, half of the time) discards the loads the processor has started
    /// for the lookups after this one. Ten ends instead of all 32: first the block of 16
    /// holding the child, then the block of 4 within it, then the child; the ends past the
    /// children are `Int.max`, so every node reads the same places.
    @inlinable @inline(__always)
    static func searchFull(_ ends: UnsafeMutablePointer<Int>, for index: Int) -> (child: Int, offset: Int) {
        // 1 when `ends[position]` is at most `index`: the sign of `end - index - 1`.
        @inline(__always) func atMost(_ position: Int) -> Int {
            Int(bitPattern: UInt(bitPattern: ends[position] &- index &- 1) &>> 63)
        }
        var child = atMost(15) &<< 4
        child &+= atMost(child &+ 7) &<< 3
        child &+= atMost(child &+ 3) &<< 2
        child &+= atMost(child &+ 1) &<< 1
        child &+= atMost(child)
        return (child, index &- ends[child &- 1])
    }

    /// The element at `index` (`0 ..< count`) in the subtree of `root`, found without
    /// retaining any node on the way: the caller keeps `root` alive and unmutated.
    ///
    /// Unmanaged, not a method of the root: a call on a node read from a tree held in
    /// memory the caller may write (a captured variable, a class's property) retains it
    /// for the whole call, and that atomic write, after the element's load, stops the
    /// processor from overlapping the cache misses of consecutive lookups.
    ///
    /// - Complexity: O(log *n*).
    @inlinable @inline(__always)
    static func element(in root: Unmanaged<Node>, at index: Int) -> Element {
        var index = index
        var node = root
        while let next = node._withUnsafeGuaranteedRef({ branch in
            branch.withUnsafeMutablePointers { header, tail -> Unmanaged<Node>? in
                guard header.pointee.height != 0 else { return nil }
                let stride = header.pointee.childSize
                let child: Int
                if stride != 0 {
                    // One division instead of a search: no end read, and so one cache line
                    // fewer and no dependent loads within the node.
                    // Unsigned: both are positive, and a signed division checks for overflow.
                    let (quotient, remainder) = UInt(bitPattern: index).quotientAndRemainder(dividingBy: UInt(bitPattern: stride))
                    (child, index) = (Int(bitPattern: quotient), Int(bitPattern: remainder))
                } else {
                    (child, index) = Node.searchFull(Node.ends(in: tail), for: index)
                }
                // The bits of the reference, not a strong copy: no retain on the way down.
                return UnsafeMutableRawPointer(Node.children(in: tail) + child).load(as: Unmanaged<Node>.self)
            }
        }) {
            node = next
        }
        return node._withUnsafeGuaranteedRef { leaf in
            leaf.withUnsafeMutablePointerToElements { Node.elements(in: $0)[index] }
        }
    }

    /// The child an insertion at `index` (`0 ... count`) goes into: the one holding the
    /// element now at `index`, or the last child for an append.
    @inlinable @inline(__always)
    func child(insertingAt index: Int) -> (child: Int, offset: Int) {
        let last = width - 1
        return index >= count ? (last, index - start(ofChild: last)) : child(containing: index)
    }

    /// Makes child `child` uniquely referenced, copying it if it is shared; a leaf child
    /// that is to receive elements (`growing`) gets the full room of ``leafSlots``.
    ///
    /// A copy made only to be written in place has room for its elements alone: a history
    /// keeps the leaves its steps copied, and a full-sized copy of a half-full leaf would cost
    /// it half a leaf of nothing.
    @inlinable @inline(__always)
    func makeChildUnique(_ child: Int, growing: Bool = false) {
        withUnsafeMutablePointerToElements { tail in
            let slot = Node.children(in: tail) + child
            if !isKnownUniquelyReferenced(&slot.pointee) {
                slot.pointee = slot.pointee.copy(slots: growing ? Node.leafSlots : nil)
            } else if growing, slot.pointee.isLeaf, slot.pointee.slots < Node.leafSlots {
                slot.pointee = slot.pointee.copy(slots: Node.leafSlots)
            }
            slot.pointee.touch()
        }
    }

    /// The element at `index` (`0 ..< count`).
    @inlinable
    func element(at index: Int) -> Element {
        Node.element(in: Unmanaged.passUnretained(self), at: index)
    }
}
