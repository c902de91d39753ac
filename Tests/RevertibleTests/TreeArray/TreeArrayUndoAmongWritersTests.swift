import Foundation
import Testing
import TestSupport
@testable import Revertible

/// Undoing a removal from a large `TreeArray` after another writer changed the list's
/// length elsewhere (issue 35, item 1: `clear` undone after someone's add said it worked and
/// brought nothing back).
@Suite("TreeArray: undoing removals among other writers")
struct TreeArrayUndoAmongWritersTests {

    struct Entry: Identifiable, Versionable, Hashable, Sendable {
        let id: Int
        var title: String
        var isDone = false

        func addReversions(into reverter: inout some Reverter<Self>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.isDone)
        }
    }

    struct Board: Versionable, Sendable {
        var entries: TreeArray<Entry>

        func addReversions(into reverter: inout some Reverter<Self>) {
            reverter.appendReversion(at: \.entries)
        }
    }

    private func board(_ count: Int) -> Board {
        Board(entries: TreeArray((0..<count).map { Entry(id: $0, title: "s\($0)") }))
    }

    @Test("Removing two far-apart items, then another writer's add: undo brings both back", arguments: [ConflictPolicy.skip, .refuse])
    func clearThenAnotherWritersAdd(policy: ConflictPolicy) throws {
        let controller = ValueVersioningController(board(200))
        var marked = Array(controller.currentVersion.entries)
        marked[29].isDone = true
        marked[189].isDone = true
        marked.append(Entry(id: 1_000, title: "t1"))
        controller.absorb(Board(entries: TreeArray(marked)))
        var cleared = controller.currentVersion
        cleared.entries.removeAll { $0.isDone }
        controller.append(cleared)
        var added = Array(controller.currentVersion.entries)
        added.append(Entry(id: 1_001, title: "t2"))
        controller.absorb(Board(entries: TreeArray(added)))

        try controller.undo(onConflict: policy)

        let ids = controller.currentVersion.entries.map(\.id)
        #expect(controller.lastConflicts.isEmpty)
        #expect(ids.count == 202)
        #expect(ids.firstIndex(of: 29) == 29)
        #expect(ids.firstIndex(of: 189) == 189)
        #expect(ids.suffix(2) == [1_000, 1_001])
    }

    /// A step recorded before an element that crossed a leaf's boundary became a move: it is
    /// stored on both sides under one id. Undo still brings back what it removed.
    @Test("A step that stores one element on both sides still undoes among other writers")
    func elementStoredOnBothSides() throws {
        typealias Node = TreeArrayChangeNode<Board, Entry>
        let before = Array(board(10).entries)
        var after = before
        after.remove(at: 2)
        // Undo takes `after` back to `before`: the new side is `after`'s positions.
        let change = Node(
            at: \Board.entries,
            edits: IdentifiedArrayEdits([]),
            structure: IdentifiedArrayStructure(
                old: [(2, .stored(before[2])), (6, .stored(before[6]))],
                new: [(5, .stored(before[6]))]
            ),
            oldCount: 10, newCount: 9
        )
        let reversion = Reversion<Board>(node: change)
        var value = Board(entries: TreeArray(after + [Entry(id: 50, title: "other")]))
        let conflicts = reversion.revertSelectively(&value, onConflict: .skip)
        #expect(conflicts.isEmpty)
        #expect(value.entries.map(\.id) == Array(0..<10) + [50])
    }

    @Test("Random removals undone after another writer's inserts and removals elsewhere")
    func randomRemovalsAmongWriters() throws {
        var generator = SeededGenerator(seed: 35)
        for round in 0..<40 {
            let count = Int.random(in: 300...1_200, using: &generator)
            let controller = ValueVersioningController(board(count))
            // The recorded writer removes a few items (a `clear`, or one `rm`).
            let removed = Set((0..<Int.random(in: 1...6, using: &generator)).map { _ in Int.random(in: 0..<count, using: &generator) })
            var mine = controller.currentVersion
            mine.entries.removeAll { removed.contains($0.id) }
            controller.append(mine)
            // Another writer adds and removes other items, anywhere.
            var theirs = Array(controller.currentVersion.entries)
            var nextID = 10_000
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                if Bool.random(using: &generator), theirs.count > 1 {
                    theirs.remove(at: Int.random(in: 0..<theirs.count, using: &generator))
                } else {
                    theirs.insert(Entry(id: nextID, title: "x\(nextID)"), at: Int.random(in: 0...theirs.count, using: &generator))
                    nextID += 1
                }
            }
            controller.absorb(Board(entries: TreeArray(theirs)))
            let policy: ConflictPolicy = Bool.random(using: &generator) ? .skip : .refuse
            try controller.undo(onConflict: policy)
            let ids = controller.currentVersion.entries.map(\.id)
            #expect(controller.lastConflicts.isEmpty, "round \(round)")
            #expect(Set(ids) == Set(theirs.map(\.id)).union(removed), "round \(round)")
            #expect(ids.count == Set(ids).count, "round \(round)")
            // The other writer's items keep their order.
            #expect(ids.filter { !removed.contains($0) } == theirs.map(\.id), "round \(round)")
        }
    }
}
