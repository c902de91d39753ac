import Foundation
import Testing
import TestSupport
@testable import Revertible
// Invariant checks, capacities and the identity index: internal to the tree's module, not
// part of its seam with Revertible.
@testable import TreeArray

/// A document holding a large list in a `TreeArray`, as an app would.
struct RowDocument: Versionable, Codable, Sendable {
    var name: String
    var rows: TreeArray<Row>

    func addReversions(into reverter: inout some Reverter<RowDocument>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.rows)
    }
}

/// Model-based: random edits, undos and redos on a controller tracking a `TreeArray`-based
/// value, checked after every operation against a history of full snapshots.
///
/// Each seed runs twice (issue 39): its edits made in transactions, whose writes to the lent
/// tree the journal records (one edit, insert or remove per step; a step of several is
/// compared), and made then `append`ed, which compares. Both runs must match the model and
/// see the same present, undo and redo counts after each operation and the same archive at
/// the end; a real share of the transactions must have been journaled.
@Suite("TreeArray: history, model-based")
struct TreeArrayHistoryTests {

    @Test("Random edits, undos and redos match a snapshot history, journaled or compared",
          arguments: RandomizedTesting.seeds(defaultIterations: 30))
    func modelBased(seed: UInt64) throws {
        var (journaled, transactions) = (0, 0)
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "TreeArrayHistoryTests")
        try expectSameInBothRecordingModes("seed \(seed) (\(replay))") { recordsWrites in
            try run(seed: seed, recordsWrites: recordsWrites, journaled: &journaled, transactions: &transactions)
        }
        if RandomizedTesting.isVerbose { print("TreeArrayHistoryTests: seed \(seed), \(journaled) of \(transactions) transactions journaled") }
        // A step of one write is a third of them, less those of two writes: a quarter journaled
        // (the least of the CI seeds: one in six); far fewer is a journal that stopped taking them.
        #expect(journaled * 16 > transactions, "seed \(seed): \(journaled) of \(transactions) transactions journaled; \(replay)")
    }

    /// One run of `seed`, its edits made in transactions (`recordsWrites`) or appended; returns
    /// what it saw after each operation, and adds its journaled steps and its transactions.
    private func run(seed: UInt64, recordsWrites: Bool, journaled: inout Int, transactions: inout Int) throws -> [ControllerObservation] {
        let mode = recordsWrites ? "journaled" : "compared"
        var factory = RowFactory(seed: seed)
        let size = [0, 10, 300, 2_000][Int.random(in: 0..<4, using: &factory.random)]
        var document = RowDocument(name: "list", rows: TreeArray(factory.rows(size)))
        // A clock that never moves: the two modes' archives keep the same times.
        let controller = VersioningController<RowDocument, RowDocument, HistoryError>(document, clock: TestClock())
        defer { if recordsWrites { journaled += controller.journaledStepCount } }
        var observations: [ControllerObservation] = []
        // The model: every version, and the position of the current one.
        var versions = [document]
        var position = 0
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "TreeArrayHistoryTests")
        for step in 0..<RandomizedTesting.operationsPerSequence / 2 {
            let roll = Int.random(in: 0..<100, using: &factory.random)
            switch roll {
            case 0..<20 where position > 0:
                try controller.undo(&document)
                position -= 1
            case 20..<30 where position < versions.count - 1:
                try controller.redo(&document)
                position += 1
            default:
                func edit(_ document: inout RowDocument) {
                    for _ in 0..<Int.random(in: 1...3, using: &factory.random) {
                        factory.change(&document.rows)
                    }
                    if factory.random.chance(0.1) { document.name += "." }
                }
                if recordsWrites {
                    transactions += 1
                    document = controller.setWithTransaction(edit)
                } else {
                    edit(&document)
                    controller.append(document)
                }
                if document != versions[position] {
                    versions.removeSubrange((position + 1)...)
                    versions.append(document)
                    position += 1
                }
            }
            guard document == versions[position],
                  controller.undoCount == position,
                  controller.redoCount == versions.count - 1 - position else {
                Issue.record("seed \(seed), step \(step) (roll \(roll)), \(mode): the controller disagrees with the model; \(replay)")
                return observations
            }
            observations.append(try ControllerObservation(controller))
            // The shape after every undo, redo and recorded step, not only at the end: a step
            // applied through the history writes the tree outside its own mutations' checks.
            document.rows._invariantCheck()
            // Lookups by id, whose index every undo, redo and recorded step must keep right.
            if factory.random.chance(0.3) {
                let id = Int.random(in: 0...(factory.nextID + 1), using: &factory.random)
                guard document.rows.index(id: id) == document.rows.firstIndex(where: { $0.id == id }) else {
                    Issue.record("seed \(seed), step \(step), \(mode): index(id: \(id)) disagrees with a scan; \(replay)")
                    return observations
                }
                document.rows._identityInvariantCheck()
            }
        }
        observations.append(try ControllerObservation(controller, archive: true))
        while controller.undoCount > 0 { try controller.undo(&document) }
        #expect(document == versions[0], "seed \(seed), \(mode)")
        observations.append(try ControllerObservation(controller))
        while controller.redoCount > 0 { try controller.redo(&document) }
        #expect(document == versions[versions.count - 1], "seed \(seed), \(mode)")
        observations.append(try ControllerObservation(controller, archive: true))
        expectValidTree(document.rows, seed: seed)
        return observations
    }
}
