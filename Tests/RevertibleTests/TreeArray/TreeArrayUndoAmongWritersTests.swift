import Foundation
import Testing
import TestSupport
@testable import Revertible

/// Undoing a removal from a large `TreeArray` after another writer changed the list's
/// length elsewhere (issue 35, item 1: `clear` undone after someone's add said it worked and
/// brought nothing back).
///
/// The random removals run twice (issue 39): removed in a transaction, whose one removal the
/// journal records (a `clear` of several is compared), and removed then `append`ed, which
/// compares. Both must bring back the same items, and save the same archive.
@Suite("TreeArray: undoing removals among other writers")
struct TreeArrayUndoAmongWritersTests {

    struct Entry: Identifiable, Versionable, Hashable, Codable, Sendable {
        let id: Int
        var title: String
        var isDone = false

        func addReversions(into reverter: inout some Reverter<Self>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.isDone)
        }
    }

    struct Board: Versionable, Codable, Sendable {
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

    @Test("Random removals undone after another writer's inserts and removals elsewhere, journaled or compared")
    func randomRemovalsAmongWriters() throws {
        var (journaled, rounds) = (0, 0)
        for seed in RandomizedTesting.seeds(defaultIterations: 40) {
            try expectSameInBothRecordingModes("seed \(seed) (\(replay(seed)))") { recordsWrites in
                try removalsAmongWriters(seed: seed, recordsWrites: recordsWrites, journaled: &journaled)
            }
            rounds += 1
        }
        if RandomizedTesting.isVerbose { print("TreeArrayUndoAmongWritersTests: \(journaled) of \(rounds) removals journaled") }
        // Half the rounds remove one item, in a step the journal records.
        #expect(journaled * 4 > rounds, "\(journaled) of \(rounds) removals journaled")
    }

    private func replay(_ seed: UInt64) -> String {
        RandomizedTesting.replayCommand(seed: seed, filter: "TreeArrayUndoAmongWritersTests")
    }

    /// One round: the recorded writer's removal made in a transaction (`recordsWrites`) or
    /// appended, another writer's changes absorbed, and the removal undone; returns what the
    /// round saw after each of the three, and adds its journaled steps.
    private func removalsAmongWriters(seed: UInt64, recordsWrites: Bool, journaled: inout Int) throws -> [ControllerObservation] {
        let context = "seed \(seed), \(recordsWrites ? "journaled" : "compared"); \(replay(seed))"
        var generator = SeededGenerator(seed: seed)
        let count = Int.random(in: 300...1_200, using: &generator)
        // A clock that never moves: the two modes' archives keep the same times.
        let controller = ValueVersioningController(board(count), clock: TestClock())
        var observations: [ControllerObservation] = []
        // The recorded writer removes a few items (a `clear`), or one (an `rm`).
        let removedCount = Bool.random(using: &generator) ? 1 : Int.random(in: 2...6, using: &generator)
        let removed = Set((0..<removedCount).map { _ in Int.random(in: 0..<count, using: &generator) })
        func remove(from board: inout Board) {
            if removed.count == 1, let index = board.entries.firstIndex(where: { removed.contains($0.id) }) {
                board.entries.remove(at: index)
            } else {
                board.entries.removeAll { removed.contains($0.id) }
            }
        }
        if recordsWrites {
            controller.setWithTransaction(remove)
        } else {
            var mine = controller.currentVersion
            remove(from: &mine)
            controller.append(mine)
        }
        observations.append(try ControllerObservation(controller))
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
        observations.append(try ControllerObservation(controller))
        let policy: ConflictPolicy = Bool.random(using: &generator) ? .skip : .refuse
        try controller.undo(onConflict: policy)
        observations.append(try ControllerObservation(controller, archive: true))
        let ids = controller.currentVersion.entries.map(\.id)
        #expect(controller.lastConflicts.isEmpty, "\(context)")
        #expect(Set(ids) == Set(theirs.map(\.id)).union(removed), "\(context)")
        #expect(ids.count == Set(ids).count, "\(context)")
        // The other writer's items keep their order.
        #expect(ids.filter { !removed.contains($0) } == theirs.map(\.id), "\(context)")
        if recordsWrites { journaled += controller.journaledStepCount }
        return observations
    }
}
