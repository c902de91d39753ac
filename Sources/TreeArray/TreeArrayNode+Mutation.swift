// Mutation (on a uniquely referenced node) of a tree node; the node's layout and header are in TreeArrayNode.swift.

extension TreeArrayNode {

    /// Inserts `element` at `index` (`0 ... count`), with a key between `lower` and `upper`
    /// (the keys just outside this subtree, exclusive), and tells `identities`. Returns
    /// `false` when no key fits and this subtree could not be relabeled (nothing changed),
    /// and the new right sibling when this node had to split. A leaf must have room for one
    /// more element.
    @inlinable
    func insert(
        _ element: Element, at index: Int, between lower: UInt64, and upper: UInt64,
        identities: inout TreeArrayIdentities<Element>?
    ) -> (inserted: Bool, sibling: Node?) {
        if isLeaf {
            func key() -> UInt64? {
                withUnsafeMutablePointerToHeader { header in
                    let keys = header.pointee.keys
                    return Node.key(between: index > 0 ? keys[index - 1] : lower, and: index < keys.count ? keys[index] : upper)
                }
            }
            var newKey = key()
            if newKey == nil {
                guard relabel(between: lower, and: upper, minimum: Node.minimumRelabelSpacing(height: 0), identities: &identities) else {
                    return (false, nil)
                }
                newKey = key()
            }
            let inserted = newKey.unsafelyUnwrapped
            let width = withUnsafeMutablePointers { header, tail in
                let elements = Node.elements(in: tail)
                let width = header.pointee.width
                precondition(width < header.pointee.slots, "TreeArray: a leaf without room")
                (elements + index + 1).moveInitialize(from: elements + index, count: width - index)
                (elements + index).initialize(to: element)
                header.pointee.keys.insert(inserted, at: index)
                header.pointee.width = width + 1
                header.pointee.count = width + 1
                return width + 1
            }
            identities?.insert(element, key: inserted)
            return (true, width > Node.leafCapacity ? split(appending: index == width - 1) : nil)
        }
        let (child, offset) = child(insertingAt: index)
        makeChildUnique(child, growing: true)
        let (childLower, childUpper) = withUnsafeMutablePointerToHeader { header in
            // Only an append reaches the end of a child, and only of the last one, so the
            // bound after any other child is its own last key (kept: relabeling stays at or
            // below it).
            let keys = header.pointee.keys
            return (child > 0 ? keys[child - 1] : lower, child + 1 < header.pointee.width ? keys[child] &+ 1 : upper)
        }
        let target = self.child(child)
        let (inserted, sibling) = target.insert(element, at: offset, between: childLower, and: childUpper, identities: &identities)
        if !inserted {
            guard relabel(between: lower, and: upper, minimum: Node.minimumRelabelSpacing(height: height), identities: &identities) else {
                return (false, nil)
            }
            return insert(element, at: index, between: lower, and: upper, identities: &identities)
        }
        if let sibling {
            insertChild(sibling, at: child + 1)
            recomputeEnds(from: child)
            return (true, isOverfull ? split(appending: child + 1 == width - 1) : nil)
        }
        let lastKey = target.lastKey
        withUnsafeMutablePointers { header, tail in
            let ends = Node.ends(in: tail)
            let width = header.pointee.width
            for position in child ..< width { ends[position] += 1 }
            header.pointee.keys[child] = lastKey
            header.pointee.count += 1
            // Only the last child may grow and keep the stride, up to the stride itself.
            let stride = header.pointee.childSize
            if child != width - 1 || ends[child] - ends[child - 1] > stride {
                header.pointee.childSize = 0
            }
        }
        return (true, nil)
    }

    /// Puts `node` among a branch's children at `position`, leaving the ends to the caller.
    @inlinable
    func insertChild(_ node: Node, at position: Int) {
        withUnsafeMutablePointers { header, tail in
            let (children, ends) = (Node.children(in: tail), Node.ends(in: tail))
            let width = header.pointee.width
            precondition(width < Node.branchSlots, "TreeArray: a branch without room")
            (children + position + 1).moveInitialize(from: children + position, count: width - position)
            (children + position).initialize(to: node)
            (ends + position + 1).moveInitialize(from: ends + position, count: width - position)
            header.pointee.width = width + 1
        }
    }

    /// Takes child `position` out of a branch, leaving the ends to the caller.
    @inlinable @discardableResult
    func removeChild(at position: Int) -> Node {
        withUnsafeMutablePointers { header, tail in
            let (children, ends) = (Node.children(in: tail), Node.ends(in: tail))
            let width = header.pointee.width
            let removed = (children + position).move()
            (children + position).moveInitialize(from: children + position + 1, count: width - position - 1)
            (ends + position).moveInitialize(from: ends + position + 1, count: width - position - 1)
            ends[width - 1] = .max
            header.pointee.width = width - 1
            return removed
        }
    }

    /// Moves the upper part of an overfull node into a new right sibling: half of it, or,
    /// when the entry that overflowed was appended at the end, only that entry, so a tree
    /// built by appending keeps its nodes full.
    @inlinable
    func split(appending: Bool) -> Node {
        let width = self.width
        let keep = appending ? width - 1 : width / 2
        let sibling = isLeaf ? Node.emptyLeaf() : Node.make(height: height, slots: Node.branchSlots)
        Node.moveEntries(from: self, range: keep ..< width, to: sibling, at: 0)
        if isLeaf {
            withUnsafeMutablePointerToHeader { $0.pointee.count = keep }
            sibling.withUnsafeMutablePointerToHeader { $0.pointee.count = width - keep }
        } else {
            recomputeEnds()
            sibling.recomputeEnds()
        }
        return sibling
    }

    /// Moves entries `range` of `source` (the last ones, or the first ones) to position
    /// `position` of `target` (its end or its start), with their keys, both nodes of one
    /// height; counts and ends are left to the caller.
    @inlinable
    static func moveEntries(from source: Node, range: Range<Int>, to target: Node, at position: Int) {
        source.withUnsafeMutablePointers { sourceHeader, sourceTail in
            target.withUnsafeMutablePointers { targetHeader, targetTail in
                let (moved, sourceWidth, targetWidth) = (range.count, sourceHeader.pointee.width, targetHeader.pointee.width)
                func move<T>(_ from: UnsafeMutablePointer<T>, _ to: UnsafeMutablePointer<T>) {
                    (to + position + moved).moveInitialize(from: to + position, count: targetWidth - position)
                    (to + position).moveInitialize(from: from + range.lowerBound, count: moved)
                    (from + range.lowerBound).moveInitialize(from: from + range.upperBound, count: sourceWidth - range.upperBound)
                }
                if sourceHeader.pointee.height == 0 {
                    move(Node.elements(in: sourceTail), Node.elements(in: targetTail))
                } else {
                    move(Node.children(in: sourceTail), Node.children(in: targetTail))
                    move(Node.ends(in: sourceTail), Node.ends(in: targetTail))
                }
                // Keys of a leaf; a branch's last keys are recomputed with its ends, but move
                // them too so that both stay one per entry.
                targetHeader.pointee.keys.insert(contentsOf: sourceHeader.pointee.keys[range], at: position)
                sourceHeader.pointee.keys.removeSubrange(range)
                sourceHeader.pointee.width = sourceWidth - moved
                targetHeader.pointee.width = targetWidth + moved
            }
        }
    }

    /// Removes and returns the element at `index` (`0 ..< count`), with its key. Children may
    /// become underfull; this node merges or rebalances them with a neighbour.
    @inlinable
    func remove(at index: Int) -> (element: Element, key: UInt64) {
        if isLeaf {
            return withUnsafeMutablePointers { header, tail in
                let elements = Node.elements(in: tail)
                let width = header.pointee.width
                let removed = (elements + index).move()
                (elements + index).moveInitialize(from: elements + index + 1, count: width - index - 1)
                header.pointee.width = width - 1
                header.pointee.count = width - 1
                return (removed, header.pointee.keys.remove(at: index))
            }
        }
        let (child, offset) = child(containing: index)
        makeChildUnique(child)
        let target = self.child(child)
        let removed = target.remove(at: offset)
        withUnsafeMutablePointers { header, tail in
            let ends = Node.ends(in: tail)
            let width = header.pointee.width
            for position in child ..< width { ends[position] -= 1 }
            header.pointee.count -= 1
            // Only the last child may shrink and keep the stride (an emptied one is dropped
            // below, which recomputes it).
            if child != width - 1 {
                header.pointee.childSize = 0
            }
        }
        if target.count == 0, width > 1 {
            // Emptied (a branch left with one child merges nothing): dropped, so no empty
            // node stays below the root.
            updateKeys { _ = $0.remove(at: child) }
            removeChild(at: child)
            recomputeEnds(from: child)
        } else {
            let lastKey = target.count > 0 ? target.lastKey : (child > 0 ? lastKeys[child - 1] : 0)
            updateKeys { $0[child] = lastKey }
            if target.isUnderfull, width > 1 {
                rebalance(child)
            }
        }
        return removed
    }

    /// Merges the underfull child `child` with a neighbour, or, when both do not fit in one
    /// node, shares their entries evenly.
    @inlinable
    func rebalance(_ child: Int) {
        let left = child + 1 < width ? child : child - 1
        // Both may receive the other's entries.
        makeChildUnique(left, growing: true)
        makeChildUnique(left + 1, growing: true)
        let (first, second) = (self.child(left), self.child(left + 1))
        let (firstWidth, secondWidth) = (first.width, second.width)
        let total = firstWidth + secondWidth
        if total <= (first.isLeaf ? Node.leafCapacity : Node.branchCapacity) {
            Node.moveEntries(from: second, range: 0 ..< secondWidth, to: first, at: firstWidth)
            updateKeys { _ = $0.remove(at: left + 1) }
            removeChild(at: left + 1)
        } else {
            let half = total / 2
            if firstWidth > half {
                Node.moveEntries(from: first, range: half ..< firstWidth, to: second, at: 0)
            } else {
                Node.moveEntries(from: second, range: 0 ..< (half - firstWidth), to: first, at: firstWidth)
            }
        }
        for node in [first, second] {
            if node.isLeaf {
                node.withUnsafeMutablePointerToHeader { $0.pointee.count = $0.pointee.width }
            } else {
                node.recomputeEnds()
            }
        }
        recomputeEnds(from: left)
    }
}
