import Foundation
import Testing
import TestSupport
@testable import Revertible
// Invariant checks, capacities and the identity index: internal to the tree's module, not
// part of its seam with Revertible.
@testable import TreeArray

/// The identity index: lookups by id in O(log n), kept up to date by every mutation and
/// shared between versions.
@Suite("TreeArray: lookup by id")
struct TreeArrayIdentityTests {

    /// The position of `id` by a plain scan: the reference the index must agree with.
    private func scan(_ tree: TreeArray<Row>, _ id: Int) -> Int? {
        tree.firstIndex { $0.id == id }
    }

    @Test("subscript(id:) sets an element in place, removes it with nil, and appends a new id")
    func settableSubscript() {
        var tree = TreeArray((1...500).map { Row(id: $0, title: "row \($0)", done: false) })
        tree[id: 250]?.title = "edited"
        #expect(tree[250 - 1].title == "edited")
        #expect(tree[id: 250]?.title == "edited")

        tree[id: 10] = nil
        #expect(tree.count == 499)
        #expect(tree[id: 10] == nil)
        #expect(tree.index(id: 11) == 9)

        tree[id: 1_000] = Row(id: 1_000, title: "new", done: true)
        #expect(tree.count == 500)
        #expect(tree.index(id: 1_000) == 499)
        #expect(tree.last?.id == 1_000)

        tree[id: 2_000] = nil
        #expect(tree.count == 500)
        tree._invariantCheck()
        tree._identityInvariantCheck()
    }

    @Test("Lookups follow inserts, removes, moves and id changes")
    func lookupAfterMutations() {
        var tree = TreeArray((1...1_000).map { Row(id: $0, title: "", done: false) })
        #expect(tree.index(id: 700) == 699)
        tree.insert(Row(id: 5_000, title: "", done: false), at: 0)
        #expect(tree.index(id: 700) == 700)
        #expect(tree.index(id: 5_000) == 0)
        let moved = tree.remove(at: 700)
        tree.insert(moved, at: 3)
        #expect(tree.index(id: 700) == 3)
        #expect(tree.index(id: 701) == 701)
        // A new element in place of another: the old id is gone, the new one found there.
        tree[500] = Row(id: 6_000, title: "", done: false)
        #expect(tree.index(id: 6_000) == 500)
        #expect(tree.firstIndex { $0.id == 499 } == nil)
        #expect(tree.index(id: 499) == nil)
        tree._invariantCheck()
        tree._identityInvariantCheck()
    }

    @Test("Repeated ids: the first element with the id is found")
    func repeatedIDs() {
        var tree = TreeArray((1...200).map { Row(id: $0 % 50, title: "", done: false) })
        // Ids 7, 57, 107 and 157 hold 7 at positions 6, 56, 106 and 156.
        #expect(tree.index(id: 7) == 6)
        tree.remove(at: 6)
        #expect(tree.index(id: 7) == 55)
        tree.insert(Row(id: 7, title: "", done: false), at: 100)
        #expect(tree.index(id: 7) == 55)
        tree.insert(Row(id: 7, title: "", done: false), at: 3)
        #expect(tree.index(id: 7) == 3)
        tree._identityInvariantCheck()
    }

    @Test("Inserting thousands of times at one place relabels the keys and keeps lookups right")
    func insertionsAtOnePlace() {
        var tree = TreeArray((1...300).map { Row(id: $0, title: "", done: false) })
        _ = tree.index(id: 1)
        for id in 1_001...4_000 {
            tree.insert(Row(id: id, title: "", done: false), at: 150)
            if id % 97 == 0 {
                #expect(tree.index(id: id) == 150)
                #expect(tree.index(id: 151) == tree.count - 150)
            }
        }
        for id in 0..<10 {
            tree.insert(Row(id: 10_000 + id, title: "", done: false), at: 0)
        }
        #expect(tree.index(id: 10_009) == 0)
        #expect(tree.index(id: 1_001) == tree.count - 151)
        tree._invariantCheck()
        tree._identityInvariantCheck()
    }

    @Test("Versions share the index: a change to one copies a path of it, not all of it")
    func versionsShareTheIndex() {
        var tree = TreeArray((1...20_000).map { Row(id: $0, title: "", done: false) })
        _ = tree.index(id: 1)
        let before = tree
        tree.insert(Row(id: 99_999, title: "", done: false), at: 10)
        #expect(tree.index(id: 99_999) == 10)
        #expect(before.index(id: 99_999) == nil)
        let old = before.identityTrie().root
        let new = tree.identityTrie().root
        #expect(old !== new)
        let shared = zip(old.children, new.children).filter { $0 === $1 }.count
        #expect(new.children.count == 32 && shared == 31)
    }

    @Test("Lookups stay right across undo and redo")
    func undoAndRedo() throws {
        var document = RowDocument(name: "list", rows: TreeArray((1...3_000).map { Row(id: $0, title: "", done: false) }))
        let controller = VersioningController<RowDocument, RowDocument, HistoryError>(document)
        #expect(document.rows.index(id: 2_000) == 1_999)
        document.rows.insert(Row(id: 9_000, title: "new", done: false), at: 0)
        controller.append(document)
        // Row k sits at position k now; row 2,500 moves to position 1.
        let moved = document.rows.remove(at: 2_500)
        document.rows.insert(moved, at: 1)
        document.rows[id: 9_000]?.title = "renamed"
        controller.append(document)
        #expect(document.rows.index(id: 2_500) == 1)
        #expect(document.rows.index(id: 2_000) == 2_001)

        try controller.undo(&document)
        #expect(document.rows.index(id: 2_500) == 2_500)
        #expect(document.rows[id: 9_000]?.title == "new")
        try controller.undo(&document)
        #expect(document.rows.index(id: 9_000) == nil)
        #expect(document.rows.index(id: 2_000) == 1_999)
        try controller.redo(&document)
        try controller.redo(&document)
        #expect(document.rows.index(id: 2_500) == 1)
        #expect(document.rows[id: 9_000]?.title == "renamed")
        document.rows._invariantCheck()
        document.rows._identityInvariantCheck()
    }

    @Test("Concurrent first lookups on one shared version build its index once, safely, and agree")
    func concurrentLookups() async {
        let tree = TreeArray((1...5_000).map { Row(id: $0, title: "", done: false) })
        let found = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var right = 0
                    for id in stride(from: 1 + task, through: 5_000, by: 37) where tree.index(id: id) == id - 1 {
                        right += 1
                    }
                    return right
                }
            }
            return await group.reduce(0, +)
        }
        let expected = (0..<8).reduce(0) { total, task in total + Array(stride(from: 1 + task, through: 5_000, by: 37)).count }
        #expect(expected > 1_000 && found == expected)
        tree._identityInvariantCheck()
    }

    @Test("A root makes its identity cell once, and frees it with itself")
    func identityCellLifetime() {
        weak var freed: TreeArrayIdentityCell<Row>?
        do {
            let tree = TreeArray((1...300).map { Row(id: $0, title: "", done: false) })
            #expect(tree.root.existingIdentityCell == nil)
            #expect(tree.index(id: 42) == 41)
            let cell = tree.root.identityCellMakingOne
            #expect(tree.root.existingIdentityCell === cell)
            #expect(tree.root.identityCellMakingOne === cell)
            freed = cell
        }
        #expect(freed == nil)
    }

    @Test("Random changes: every lookup agrees with a scan, in the present and in kept versions",
          arguments: RandomizedTesting.seeds(defaultIterations: 20))
    func randomized(seed: UInt64) {
        var factory = RowFactory(seed: seed)
        let size = [0, 10, 300, 2_000][Int.random(in: 0..<4, using: &factory.random)]
        var tree = TreeArray(factory.rows(size))
        var kept: [TreeArray<Row>] = []
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "TreeArrayIdentityTests")
        for step in 0..<RandomizedTesting.operationsPerSequence / 2 {
            factory.change(&tree)
            if factory.random.chance(0.2) {
                // Through the id subscript: an edit, a removal, or an append.
                let id = Int.random(in: 0...(factory.nextID + 2), using: &factory.random)
                switch Int.random(in: 0..<3, using: &factory.random) {
                case 0: tree[id: id]?.done.toggle()
                case 1: tree[id: id] = nil
                default: tree[id: id] = Row(id: id, title: "set", done: true)
                }
            }
            if factory.random.chance(0.1) { kept.append(tree) }
            for _ in 0..<3 {
                let id = Int.random(in: 0...(factory.nextID + 2), using: &factory.random)
                guard tree.index(id: id) == scan(tree, id) else {
                    Issue.record("seed \(seed), step \(step): index(id: \(id)) is \(String(describing: tree.index(id: id))), a scan finds \(String(describing: scan(tree, id))); \(replay)")
                    return
                }
            }
            tree._invariantCheck()
            tree._identityInvariantCheck()
        }
        for version in kept {
            for _ in 0..<10 {
                let id = Int.random(in: 0...(factory.nextID + 2), using: &factory.random)
                #expect(version.index(id: id) == scan(version, id), "seed \(seed): a kept version's lookup; \(replay)")
            }
            version._invariantCheck()
            version._identityInvariantCheck()
        }
    }
}
