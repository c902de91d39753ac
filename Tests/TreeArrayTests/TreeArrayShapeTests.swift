import Testing
@testable import TreeArray

/// Reading and iterating trees whose sizes sit at the edges of their nodes: one element
/// short of a full leaf, a full leaf, one over (the first split), and the same around a full
/// branch of full leaves (the first new level), built in each way that shapes a tree
/// differently (in one piece, by appends, by inserts at the front, by inserts in the middle,
/// and by removals down from a larger tree).
@Suite("TreeArray: node boundaries")
struct TreeArrayShapeTests {

    static let leaf = TreeArrayNode<Int>.leafCapacity
    static let branch = TreeArrayNode<Int>.branchCapacity

    static let sizes: [Int] = {
        let edges = [0, 1, 2, leaf / 2, leaf - 1, leaf, leaf + 1, 2 * leaf, 2 * leaf + 1,
                     leaf * branch - 1, leaf * branch, leaf * branch + 1]
        return Array(Set(edges)).sorted()
    }()

    enum Shaping: CaseIterable, CustomStringConvertible {
        case built, appended, prepended, insertedInMiddle, removedFromLarger

        var description: String {
            switch self {
            case .built: "built"
            case .appended: "appended"
            case .prepended: "prepended"
            case .insertedInMiddle: "inserted in the middle"
            case .removedFromLarger: "removed from a larger tree"
            }
        }

        /// A tree holding `0 ..< count` in order, shaped this way.
        func tree(count: Int) -> TreeArray<Int> {
            switch self {
            case .built:
                return TreeArray(0 ..< count)
            case .appended:
                var tree = TreeArray<Int>()
                for value in 0 ..< count { tree.append(value) }
                return tree
            case .prepended:
                var tree = TreeArray<Int>()
                for value in (0 ..< count).reversed() { tree.insert(value, at: 0) }
                return tree
            case .insertedInMiddle:
                var tree = TreeArray<Int>()
                for value in 0 ..< count { tree.insert(value, at: tree.count / 2) }
                // Then written in place to hold `0 ..< count`.
                for position in tree.indices { tree[position] = position }
                return tree
            case .removedFromLarger:
                var tree = TreeArray(0 ..< count + 3 * leaf)
                // A leaf's worth off each end and out of the middle.
                tree.removeSubrange(0 ..< leaf)
                tree.removeSubrange(tree.count - leaf ..< tree.count)
                for _ in 0 ..< leaf { _ = tree.remove(at: tree.count / 2) }
                // Then written in place to hold `0 ..< count`.
                for position in tree.indices { tree[position] = position }
                return tree
            }
        }
    }

    @Test("Reads, iteration and chunks agree with the elements at every node boundary", arguments: Shaping.allCases)
    func boundaries(shaping: Shaping) {
        for count in Self.sizes {
            let tree = shaping.tree(count: count)
            let expected = Array(0 ..< count)
            tree._invariantCheck()
            #expect(tree.count == count, "\(shaping), \(count) elements")
            var iterated: [Int] = []
            for element in tree { iterated.append(element) }
            #expect(iterated == expected, "\(shaping), \(count) elements: iteration")
            var chunked: [Int] = []
            tree.forEachChunk { chunked.append(contentsOf: $0) }
            #expect(chunked == expected, "\(shaping), \(count) elements: chunks")
            let mismatches = (0 ..< count).filter { tree[$0] != $0 }
            #expect(mismatches.isEmpty, "\(shaping), \(count) elements: reads wrong at \(mismatches.prefix(5))")
            // An iterator runs out once, and stays out.
            var iterator = tree.makeIterator()
            for _ in 0 ..< count { _ = iterator.next() }
            #expect(iterator.next() == nil && iterator.next() == nil, "\(shaping), \(count) elements: iterator past the end")
        }
    }

    @Test("An iterator keeps reading the version it was made from while the tree changes")
    func iteratorKeepsItsVersion() {
        let count = Self.leaf * Self.branch + Self.leaf
        var tree = TreeArray(0 ..< count)
        var iterator = tree.makeIterator()
        var seen: [Int] = []
        while let element = iterator.next() {
            seen.append(element)
            // Write the leaf being read, the one the iterator looked up next, and the end.
            if seen.count % Self.leaf == Self.leaf / 2 {
                let position = seen.count
                tree[position - 1] = -1
                if position + Self.leaf < tree.count { tree[position + Self.leaf] = -2 }
                tree.append(-3)
                tree.remove(at: 0)
            }
        }
        #expect(seen == Array(0 ..< count))
        tree._invariantCheck()
    }
}
