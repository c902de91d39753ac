import Foundation
import Testing
import TestSupport
@testable import Revertible
import TreeArray

/// A saved step's bytes depend only on the two versions, not on how they were built
/// (issue 39, item 3: journaled and compared recording must save the same archive).
@Suite("Saved steps are canonical")
struct CanonicalStepTests {

    @Test("A tree's step is the same bytes however the versions are cut and whatever nodes they share")
    func treeStep() throws {
        for seed in UInt64(1)...200 {
            var factory = RowFactory(seed: seed)
            let a = TreeArray(factory.rows([40, 200, 1_500][Int(seed % 3)]))
            var b = a
            for _ in 0...(seed % 8) {
                factory.change(&b)
            }
            guard let shared = b.reversion(to: a) else { continue }
            let bytes = try encoded(shared)
            // Rebuilt whole (no node shared), and grown one element at a time (cut elsewhere).
            var grown = TreeArray<Row>()
            for row in b {
                grown.append(row)
            }
            for (older, newer) in [(TreeArray(Array(a)), b), (a, TreeArray(Array(b))), (TreeArray(Array(a)), grown)] {
                let other = try #require(newer.reversion(to: older))
                #expect(try encoded(other) == bytes, "seed \(seed)")
            }
        }
    }

    @Test("The staying set is the longest increasing subsequence with the smallest old positions, on runs as on elements",
          arguments: RandomizedTesting.seeds(defaultIterations: 300))
    func stayingSet(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        // The common elements, their old positions listed in the newer order, cut into runs
        // that line up on both sides.
        let count = Int.random(in: 0...9, using: &random)
        var runs: [[Int]] = []
        var next = 0
        while next < count {
            let length = Int.random(in: 1...Swift.min(3, count - next), using: &random)
            runs.append(Array(next ..< next + length))
            next += length
        }
        runs.shuffle(using: &random)
        let olds = runs.flatMap { $0 }
        let expected = Self.bruteForceStaying(olds)
        #expect(canonicalStaying(olds.map { ($0, 1) }) == expected, "seed \(seed): \(olds)")
        var onRuns: [Bool] = []
        for (run, staying) in zip(runs, canonicalStaying(runs.map { ($0[0], $0.count) })) {
            onRuns += Array(repeating: staying, count: run.count)
        }
        #expect(onRuns == expected, "seed \(seed): \(runs)")
    }

    /// Every subsequence tried: the longest increasing, of those the smallest old positions.
    static func bruteForceStaying(_ olds: [Int]) -> [Bool] {
        var best: [Int] = []
        for mask in 0 ..< (1 << olds.count) {
            let chosen = olds.indices.filter { mask & (1 << $0) != 0 }
            let values = chosen.map { olds[$0] }
            guard zip(values, values.dropFirst()).allSatisfy({ $0 < $1 }) else { continue }
            let bestValues = best.map { olds[$0] }
            if chosen.count > best.count || (chosen.count == best.count && values.lexicographicallyPrecedes(bestValues)) {
                best = chosen
            }
        }
        return olds.indices.map { best.contains($0) }
    }

    /// A key with no order of its own: its entries are put in the order of its JSON bytes.
    struct Place: Hashable, Codable {
        var row: Int
        var column: Int
    }

    @Test("A dictionary's step is the same bytes however the dictionaries were built")
    func dictionaryStep() throws {
        try expectSameStep(keys: (0..<300).map { "key \($0)" })
        try expectSameStep(keys: Array(0..<300))
        try expectSameStep(keys: (0..<300).map { Place(row: $0 / 17, column: $0 % 17) })
    }

    /// Built in order and in reverse with room for many more entries (another iteration
    /// order), the same change saves the same bytes.
    func expectSameStep<Key: Hashable & Codable>(keys: [Key], sourceLocation: SourceLocation = #_sourceLocation) throws {
        func build(_ pairs: [(Key, Int)], reversed: Bool) -> [Key: Int] {
            var dictionary: [Key: Int] = [:]
            if reversed {
                dictionary.reserveCapacity(4 * pairs.count)
            }
            for (key, value) in reversed ? pairs.reversed() : pairs {
                dictionary[key] = value
            }
            return dictionary
        }
        let old = keys.dropLast(50).map { ($0, 1) }
        // Every third updated, every fifth removed, the last 50 inserted.
        let new = keys.enumerated().compactMap { index, key in index % 5 == 0 && index < keys.count - 50 ? nil : (key, index % 3) }
        let forward = try #require(build(new, reversed: false).reversion(to: build(old, reversed: false)))
        let backward = try #require(build(new, reversed: true).reversion(to: build(old, reversed: true)))
        #expect(try encoded(forward) == encoded(backward), sourceLocation: sourceLocation)
    }

    @Test("A set's step is the same bytes however the sets were built")
    func setStep() throws {
        try expectSameSetStep(members: (0..<300).map { "member \($0)" })
        try expectSameSetStep(members: Array(0..<300))
        try expectSameSetStep(members: (0..<300).map { Place(row: $0 / 17, column: $0 % 17) })
    }

    /// Built in order and in reverse with room for many more members (another iteration
    /// order), the same change saves the same bytes.
    func expectSameSetStep<Member: Hashable & Codable>(members: [Member], sourceLocation: SourceLocation = #_sourceLocation) throws {
        func build(_ members: [Member], reversed: Bool) -> Set<Member> {
            var set = Set<Member>()
            if reversed {
                set.reserveCapacity(4 * members.count)
            }
            for member in reversed ? members.reversed() : members {
                set.insert(member)
            }
            return set
        }
        // The last 50 added, every fifth of the others removed.
        let old = Array(members.dropLast(50))
        let new = members.enumerated().filter { $0.offset % 5 != 0 || $0.offset >= members.count - 50 }.map(\.element)
        let forward = try #require(build(new, reversed: false).reversion(to: build(old, reversed: false)))
        let backward = try #require(build(new, reversed: true).reversion(to: build(old, reversed: true)))
        #expect(try encoded(forward) == encoded(backward), sourceLocation: sourceLocation)
    }
}
