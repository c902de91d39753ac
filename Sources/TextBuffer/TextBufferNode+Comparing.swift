import Foundation

extension TextBuffer {

    /// The length in UTF-8 bytes of the text this buffer and `other` begin with alike: the
    /// chunks they share are skipped by identity, never read. It may end inside a scalar.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the bytes of the chunks the
    ///   two do not share, when one was made from the other by an edit; O(*n*) in general.
    package func commonPrefixCount(with other: TextBuffer) -> Int {
        Node.commonPrefix(root, other.root)
    }

    /// The length in UTF-8 bytes of the text this buffer and `other` end with alike, skipping
    /// the chunks they share. It may begin inside a scalar.
    ///
    /// - Complexity: as ``commonPrefixCount(with:)``.
    package func commonSuffixCount(with other: TextBuffer) -> Int {
        Node.commonSuffix(root, other.root)
    }
}

extension TextBufferNode {

    /// The length of the common prefix of two trees' contents. Subtrees the two share at
    /// the same offset are skipped by identity, never read.
    static func commonPrefix(_ a: Node, _ b: Node) -> Int {
        commonRun(a, b, atEnd: false)
    }

    /// The length of the common suffix of two trees' contents, skipping shared subtrees.
    static func commonSuffix(_ a: Node, _ b: Node) -> Int {
        commonRun(a, b, atEnd: true)
    }

    /// The common prefix, or the common suffix `atEnd`: both are found in the same two passes,
    /// which differ only in the end they walk from.
    private static func commonRun(_ a: Node, _ b: Node, atEnd: Bool) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        let structural = atEnd ? structuralSuffix(a, b) : structuralPrefix(a, b)
        // Where the trees are cut differently, the walk gives only a lower bound: the bytes
        // from there on are compared leaf by leaf.
        if structural.exact { return structural.length }
        if structural.length >= limit { return limit }
        return atEnd ? bytewiseSuffix(a, b, from: structural.length) : bytewisePrefix(a, b, from: structural.length)
    }

    /// A common prefix found by walking both trees side by side where they are cut alike;
    /// `exact` when the first difference was found there, else only a lower bound.
    private static func structuralPrefix(_ a: Node, _ b: Node) -> (length: Int, exact: Bool) {
        if a === b { return (a.byteCount, false) }
        if a.isLeaf, b.isLeaf {
            let length = Swift.min(a.bytes.count, b.bytes.count)
            let same = commonBytes(a, 0..<length, b, 0..<length, atEnd: false)
            return (same, same < length)
        }
        guard a.height == b.height else { return (0, false) }
        var total = 0
        for index in 0..<Swift.min(a.children.count, b.children.count) {
            // Shared children are skipped by their slots alone, without reading the node
            // (or retaining it).
            if a.children[index].node === b.children[index].node {
                total += a.children[index].byteCount
                continue
            }
            let (x, y) = (a.children[index], b.children[index])
            let (length, exact) = structuralPrefix(x.node, y.node)
            total += length
            if exact { return (total, true) }
            if length < x.byteCount || length < y.byteCount { return (total, false) }
        }
        return (total, false)
    }

    /// The common prefix, compared leaf by leaf from `start` (which both share before it).
    private static func bytewisePrefix(_ a: Node, _ b: Node, from start: Int) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        var position = start
        while position < limit {
            let (leafA, startA) = a.leaf(containing: position)
            let (leafB, startB) = b.leaf(containing: position)
            let endA = startA + leafA.bytes.count
            let endB = startB + leafB.bytes.count
            let end = Swift.min(endA, endB, limit)
            if leafA === leafB, startA == startB {
                position = end
                continue
            }
            let same = commonBytes(
                leafA, (position - startA)..<(end - startA), leafB, (position - startB)..<(end - startB), atEnd: false
            )
            position += same
            if position < end { return position }
        }
        return limit
    }

    /// A common suffix found by walking both trees side by side from their ends, as
    /// `structuralPrefix` walks from their starts.
    private static func structuralSuffix(_ a: Node, _ b: Node) -> (length: Int, exact: Bool) {
        if a === b { return (a.byteCount, false) }
        if a.isLeaf, b.isLeaf {
            let length = Swift.min(a.bytes.count, b.bytes.count)
            let (endA, endB) = (a.bytes.count, b.bytes.count)
            let same = commonBytes(a, (endA - length)..<endA, b, (endB - length)..<endB, atEnd: true)
            return (same, same < length)
        }
        guard a.height == b.height else { return (0, false) }
        var total = 0
        var (i, j) = (a.children.count - 1, b.children.count - 1)
        while i >= 0, j >= 0 {
            if a.children[i].node === b.children[j].node {
                total += a.children[i].byteCount
                i -= 1
                j -= 1
                continue
            }
            let (x, y) = (a.children[i], b.children[j])
            let (length, exact) = structuralSuffix(x.node, y.node)
            total += length
            if exact { return (total, true) }
            if length < x.byteCount || length < y.byteCount { return (total, false) }
            i -= 1
            j -= 1
        }
        return (total, false)
    }

    /// The common suffix, compared leaf by leaf back from `start` bytes before the ends.
    private static func bytewiseSuffix(_ a: Node, _ b: Node, from start: Int) -> Int {
        let limit = Swift.min(a.byteCount, b.byteCount)
        var length = start
        while length < limit {
            // The last byte not yet known common, in each tree.
            let (leafA, startA) = a.leaf(containing: a.byteCount - length - 1)
            let (leafB, startB) = b.leaf(containing: b.byteCount - length - 1)
            let endA = a.byteCount - length - startA
            let endB = b.byteCount - length - startB
            let run = Swift.min(endA, endB, limit - length)
            if leafA === leafB, endA == endB {
                length += run
                continue
            }
            let same = commonBytes(leafA, (endA - run)..<endA, leafB, (endB - run)..<endB, atEnd: true)
            length += same
            if same < run { return length }
        }
        return limit
    }

    /// How many leading bytes, or trailing bytes `atEnd`, of leaf `a`'s bytes in `rangeA` and
    /// leaf `b`'s in `rangeB` (ranges of one length) are equal: every comparison of the two
    /// walks comes down to this one.
    private static func commonBytes(_ a: Node, _ rangeA: Range<Int>, _ b: Node, _ rangeB: Range<Int>, atEnd: Bool) -> Int {
        a.bytes.withUnsafeBufferPointer { x in
            b.bytes.withUnsafeBufferPointer { y in
                let (x, y) = (UnsafeBufferPointer(rebasing: x[rangeA]), UnsafeBufferPointer(rebasing: y[rangeB]))
                return atEnd ? lastDifference(x, y, length: x.count) : firstDifference(x, y, length: x.count)
            }
        }
    }

    /// How many leading bytes of `x` and `y` (each at least `length` long) are equal.
    private static func firstDifference(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, length: Int) -> Int {
        guard length > 0, let baseX = x.baseAddress, let baseY = y.baseAddress else { return 0 }
        var index = 0
        // Ever smaller blocks through `memcmp` (vectorized), then words in the first block
        // that differs: a chunk of a few KB takes about twenty calls, not a hundred.
        while index + 512 <= length, memcmp(baseX + index, baseY + index, 512) == 0 { index += 512 }
        while index + 64 <= length, memcmp(baseX + index, baseY + index, 64) == 0 { index += 64 }
        while index + 8 <= length {
            let wordX = UnsafeRawPointer(baseX + index).loadUnaligned(as: UInt64.self)
            let wordY = UnsafeRawPointer(baseY + index).loadUnaligned(as: UInt64.self)
            if wordX != wordY { break }
            index += 8
        }
        while index < length, baseX[index] == baseY[index] { index += 1 }
        return index
    }

    /// How many trailing bytes of the last `length` of `x` and `y` are equal; both end where
    /// the compared runs end.
    private static func lastDifference(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>, length: Int) -> Int {
        guard length > 0, let baseX = x.baseAddress, let baseY = y.baseAddress else { return 0 }
        let (endX, endY) = (baseX + x.count, baseY + y.count)
        var matched = 0
        while matched + 512 <= length, memcmp(endX - matched - 512, endY - matched - 512, 512) == 0 { matched += 512 }
        while matched + 64 <= length, memcmp(endX - matched - 64, endY - matched - 64, 64) == 0 { matched += 64 }
        while matched + 8 <= length {
            let wordX = UnsafeRawPointer(endX - matched - 8).loadUnaligned(as: UInt64.self)
            let wordY = UnsafeRawPointer(endY - matched - 8).loadUnaligned(as: UInt64.self)
            if wordX != wordY { break }
            matched += 8
        }
        while matched < length, (endX - matched - 1).pointee == (endY - matched - 1).pointee { matched += 1 }
        return matched
    }
}
