extension TextBufferNode {

    /// A unit a position in a ``TextBuffer`` can be counted in besides UTF-8 bytes, each kept
    /// counted in every node.
    enum Unit {
        case unicodeScalar
        case utf16
    }

    /// The number of scalars and of UTF-16 code units in `bytes`, valid UTF-8 or a prefix of
    /// it cut at a scalar boundary.
    ///
    /// - Complexity: O(*n*), one pass with no branch on the kind of scalar.
    static func unitCounts(of bytes: UnsafeBufferPointer<UInt8>) -> (scalars: Int, utf16: Int) {
        var scalars = 0
        var supplementary = 0
        for byte in bytes {
            // Every byte but a continuation byte starts a scalar; a 4-byte lead byte starts
            // one beyond the Basic Multilingual Plane, two UTF-16 code units.
            scalars &+= isBoundary(byte) ? 1 : 0
            supplementary &+= byte >= 0xF0 ? 1 : 0
        }
        return (scalars, scalars + supplementary)
    }

    /// Brings ``scalarCount`` and ``utf16Count`` up to date after this node's bytes or
    /// children changed in place: after a write, bottom-up along the path written, as
    /// ``refreshTextHash()``.
    func refreshUnitCounts() {
        if isLeaf {
            (scalarCount, utf16Count) = bytes.withUnsafeBufferPointer { Node.unitCounts(of: $0) }
            return
        }
        var (scalars, utf16) = (0, 0)
        for child in children {
            scalars += child.node.scalarCount
            utf16 += child.node.utf16Count
        }
        (scalarCount, utf16Count) = (scalars, utf16)
    }

    /// How many `unit`s this subtree holds.
    func count(of unit: Unit) -> Int {
        switch unit {
        case .unicodeScalar: scalarCount
        case .utf16: utf16Count
        }
    }

    /// The UTF-8 offset in this subtree after its first `count` `unit`s, or `nil` when that
    /// falls inside a scalar (a UTF-16 offset between the halves of a surrogate pair).
    /// `count` must lie in `0...count(of: unit)`.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk: whole children are
    ///   skipped by their counts, and only the leaf reached is read.
    func utf8Offset(after count: Int, of unit: Unit) -> Int? {
        let (leaf, remaining, start) = descend(to: count, by: { $0.node.count(of: unit) }, summing: { $0.byteCount })
        return leaf.bytes.withUnsafeBufferPointer { bytes in
            var passed = 0
            var offset = 0
            while passed < remaining, offset < bytes.count {
                let lead = bytes[offset]
                passed += unit == .utf16 && lead >= 0xF0 ? 2 : 1
                offset += TextBuffer.scalarLength(leadByte: lead)
            }
            return passed == remaining ? start + offset : nil
        }
    }

    /// How many `unit`s the first `offset` bytes of this subtree hold; `offset` must lie in
    /// it and on a scalar boundary.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk.
    func count(of unit: Unit, before offset: Int) -> Int {
        let (leaf, remaining, result) = descend(to: offset, by: { $0.byteCount }, summing: { $0.node.count(of: unit) })
        let counts = leaf.bytes.withUnsafeBufferPointer { Node.unitCounts(of: UnsafeBufferPointer(rebasing: $0[..<remaining])) }
        return result + (unit == .utf16 ? counts.utf16 : counts.scalars)
    }

    /// The leaf that `position` falls in, counted by `measure` of each child, with what is
    /// left of `position` in that leaf and the sum of `other` over the children passed.
    /// Both conversions walk this way; they differ only in which count they walk by (units
    /// or bytes) and which they add up (the other).
    private func descend(
        to position: Int, by measure: (Slot) -> Int, summing other: (Slot) -> Int
    ) -> (leaf: Node, remaining: Int, passed: Int) {
        var node = self
        var remaining = position
        var passed = 0
        while !node.isLeaf {
            // A position at the end of a child is the start of the next one: the same offset.
            let last = node.children.count - 1
            var index = 0
            while index < last {
                let size = measure(node.children[index])
                if remaining < size { break }
                remaining -= size
                passed += other(node.children[index])
                index += 1
            }
            node = node.children[index].node
        }
        return (node, remaining, passed)
    }
}
