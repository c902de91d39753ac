import Testing
@testable import TreeArray

/// A node keeps its entries in its own block of memory, managed by hand: these tests check
/// that every element put in is destroyed exactly once, whatever moved it (splits, merges,
/// rebalancing, copies for another version, writes in place), and that elements with unusual
/// layouts (over-aligned, empty) are stored where they are read.
@Suite("TreeArray: node storage")
struct TreeArrayStorageTests {

    /// Counts the instances alive; one counter per test, so tests may run in parallel.
    final class Census: @unchecked Sendable {
        // Audited: only one test's single thread touches a census.
        var alive = 0
        var made = 0
    }

    final class Tracked: Equatable {
        let value: Int
        let census: Census

        init(_ value: Int, _ census: Census) {
            self.value = value
            self.census = census
            census.alive += 1
            census.made += 1
        }

        deinit { census.alive -= 1 }

        static func == (lhs: Tracked, rhs: Tracked) -> Bool { lhs.value == rhs.value }
    }

    @Test("Every element is destroyed once, after inserts, removals, writes and copies of versions")
    func elementsAreDestroyedOnce() {
        let census = Census()
        do {
            var tree = TreeArray<Tracked>()
            var model: [Int] = []
            var versions: [TreeArray<Tracked>] = []
            let leaf = TreeArrayNode<Tracked>.leafCapacity
            for step in 0 ..< 6_000 {
                let roll = Self.scatter(step, 1) % 10
                if roll < 5 || model.isEmpty {
                    let position = Int(Self.scatter(step, 2) % UInt64(model.count + 1))
                    tree.insert(Tracked(step, census), at: position)
                    model.insert(step, at: position)
                } else if roll < 8 {
                    let position = Int(Self.scatter(step, 3) % UInt64(model.count))
                    #expect(tree.remove(at: position).value == model.remove(at: position))
                } else {
                    let position = Int(Self.scatter(step, 3) % UInt64(model.count))
                    tree[position] = Tracked(-step, census)
                    model[position] = -step
                }
                if step % 97 == 0 { versions.append(tree) }
                if step % 1_000 == 999 {
                    tree._invariantCheck()
                    #expect(tree.map(\.value) == model)
                }
            }
            // Down to nothing in big bites, so that leaves and branches merge and vanish.
            while tree.count > leaf {
                tree.removeSubrange(0 ..< leaf / 2)
                model.removeSubrange(0 ..< leaf / 2)
                tree._invariantCheck()
            }
            #expect(tree.map(\.value) == model)
            #expect(census.alive > 0)
            versions.removeAll()
            tree = TreeArray()
        }
        #expect(census.alive == 0, "\(census.alive) of \(census.made) elements never destroyed (or destroyed twice, if negative)")
    }

    @Test("A tree built in one piece from a sequence that underestimates its count destroys each element once")
    func buildFromUnderestimatedSequence() {
        let census = Census()
        do {
            let leaf = TreeArrayNode<Tracked>.leafCapacity
            // `underestimatedCount` is 0 for a lazy filter: the first leaf starts small.
            let tree = TreeArray((0 ..< 3 * leaf).lazy.filter { _ in true }.map { Tracked($0, census) })
            tree._invariantCheck()
            #expect(tree.map(\.value) == Array(0 ..< 3 * leaf))
        }
        #expect(census.alive == 0)
    }

    @Test("Over-aligned elements are read and written where they are stored")
    func overAlignedElements() {
        #expect(MemoryLayout<SIMD4<Double>>.alignment > 8)
        var tree = TreeArray((0 ..< 5_000).map { SIMD4<Double>(repeating: Double($0)) })
        for position in stride(from: 0, to: 5_000, by: 7) {
            tree[position].y = -1
        }
        tree.insert(SIMD4(repeating: 0.5), at: 2_500)
        tree.remove(at: 0)
        tree._invariantCheck()
        var expected = (0 ..< 5_000).map { SIMD4<Double>(repeating: Double($0)) }
        for position in stride(from: 0, to: 5_000, by: 7) { expected[position].y = -1 }
        expected.insert(SIMD4(repeating: 0.5), at: 2_500)
        expected.remove(at: 0)
        #expect(Array(tree) == expected)
        #expect((0 ..< expected.count).allSatisfy { tree[$0] == expected[$0] })
    }

    @Test("A tree of empty values keeps its count through inserts and removals")
    func emptyElements() {
        var tree = TreeArray<Void>()
        for position in 0 ..< 3_000 { tree.insert((), at: position / 2) }
        for _ in 0 ..< 1_000 { tree.remove(at: tree.count / 3) }
        tree._invariantCheck()
        #expect(tree.count == 2_000)
        #expect(tree.reduce(0) { count, _ in count + 1 } == 2_000)
    }

    /// A well-spread, repeatable number for `step` (a multiplicative hash): the test's
    /// choices without a random generator.
    static func scatter(_ step: Int, _ salt: UInt64) -> UInt64 {
        let mixed = (UInt64(step) &+ salt &* 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        return mixed ^ (mixed >> 31)
    }
}
