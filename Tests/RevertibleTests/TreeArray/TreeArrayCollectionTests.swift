import Foundation
import Testing
import TestSupport
@testable import Revertible

/// `TreeArray` against `Array` as the reference, on seeded random operation sequences.
@Suite("TreeArray: collection semantics")
struct TreeArrayCollectionTests {

    @Test("Random operations agree with Array", arguments: RandomizedTesting.seeds(defaultIterations: 40))
    func randomOperations(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let initialCount = [0, 1, 63, 64, 65, 500, 3_000][Int.random(in: 0..<7, using: &random)]
        var reference = Array(0..<initialCount)
        var tree = TreeArray(reference)
        var next = initialCount
        var snapshots: [(TreeArray<Int>, [Int])] = []
        for step in 0..<300 {
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<25:
                let index = Int.random(in: 0...reference.count, using: &random)
                reference.insert(next, at: index)
                tree.insert(next, at: index)
                next += 1
            case 25..<45 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                #expect(reference.remove(at: index) == tree.remove(at: index), "seed \(seed), step \(step)")
            case 45..<60 where !reference.isEmpty:
                let index = Int.random(in: 0..<reference.count, using: &random)
                reference[index] = -next
                tree[index] = -next
                next += 1
            case 60..<70:
                let start = Int.random(in: 0...reference.count, using: &random)
                let end = Int.random(in: start...reference.count, using: &random)
                let count = Int.random(in: 0...(random.chance(0.2) ? 2_000 : 20), using: &random)
                let new = Array(next ..< next + count)
                next += count
                reference.replaceSubrange(start..<end, with: new)
                tree.replaceSubrange(start..<end, with: new)
            case 70..<75:
                snapshots.append((tree, reference))
            case 75..<80 where !reference.isEmpty:
                let start = Int.random(in: 0..<reference.count, using: &random)
                let end = Int.random(in: start...Swift.min(reference.count, start + 50), using: &random)
                reference[start..<end].sort(by: >)
                tree[start..<end].sort(by: >)
            case 80..<85:
                let count = Int.random(in: 0...100, using: &random)
                reference.append(contentsOf: next ..< next + count)
                tree.append(contentsOf: next ..< next + count)
                next += count
            case 85..<88 where !reference.isEmpty:
                let count = Int.random(in: 0...Swift.min(reference.count, 100), using: &random)
                reference.removeFirst(count)
                tree.removeFirst(count)
            default:
                reference.append(next)
                tree.append(next)
                next += 1
            }
            guard Array(tree) == reference, tree.count == reference.count else {
                Issue.record("seed \(seed), step \(step): tree \(tree.count) elements differs from the array's \(reference.count)")
                return
            }
        }
        expectValidTree(tree, seed: seed)
        #expect(tree.indices.map { tree[$0] } == reference, "indexed reads, seed \(seed)")
        #expect(tree.reversed().elementsEqual(reference.reversed()), "seed \(seed)")
        // Copies taken along the way never changed.
        for (copy, expected) in snapshots {
            #expect(Array(copy) == expected, "a copy changed, seed \(seed)")
            expectValidTree(copy, seed: seed)
            #expect((copy == tree) == (expected == reference), "seed \(seed)")
        }
        #expect(tree == TreeArray(reference), "seed \(seed)")
        #expect(tree.hashValue == TreeArray(reference).hashValue, "seed \(seed)")
    }

    @Test("Equality and hashing ignore chunk boundaries")
    func equalityAcrossShapes() {
        var built = TreeArray(0..<1_000)
        var grown = TreeArray<Int>()
        for value in (0..<1_000).reversed() { grown.insert(value, at: 0) }
        #expect(built == grown)
        #expect(built.hashValue == grown.hashValue)
        built[500] = -1
        #expect(built != grown)
        grown[500] = -1
        #expect(built == grown)
        #expect(TreeArray<Int>() == [])
        #expect(TreeArray([1, 2]) != TreeArray([1, 2, 3]))
    }

    @Test("Codable: encodes as an array does, and round-trips")
    func codable() throws {
        var factory = RowFactory(seed: 7)
        let rows = factory.rows(1_234)
        let tree = TreeArray(rows)
        let data = try JSONEncoder().encode(tree)
        #expect(try JSONDecoder().decode(TreeArray<Row>.self, from: data) == tree)
        #expect(try JSONDecoder().decode([Row].self, from: data) == rows)
        #expect(try JSONDecoder().decode(TreeArray<Row>.self, from: JSONEncoder().encode(rows)) == tree)
        #expect(try JSONDecoder().decode(TreeArray<Int>.self, from: Data("[]".utf8)).isEmpty)
    }

    @Test("Lookup by id")
    func lookupByID() {
        var factory = RowFactory(seed: 3)
        let rows = factory.rows(500)
        let tree = TreeArray(rows)
        #expect(tree.index(id: rows[321].id) == 321)
        #expect(tree[id: rows[0].id] == rows[0])
        #expect(tree[id: -5] == nil)
    }

    @Test("A copy shares every node until written, and a write copies one path")
    func structuralSharing() {
        let tree = TreeArray(0..<100_000)
        var copy = tree
        #expect(copy.root === tree.root)
        copy[54_321] = -1
        #expect(copy.root !== tree.root)
        #expect(tree[54_321] == 54_321)
        // Every child of the root but the one on the written path is still shared.
        let shared = zip(copy.root.children, tree.root.children).filter { $0 === $1 }.count
        #expect(shared == tree.root.children.count - 1)
    }
}
