import Foundation
import Testing
import TestSupport
@testable import Revertible
// Invariant checks, capacities and the identity index: internal to the tree's module, not
// part of its seam with Revertible.
@testable import TreeArray

/// A document holding a large list in a `TreeArray`, as an app would.
struct RowDocument: Versionable, Sendable {
    var name: String
    var rows: TreeArray<Row>

    func addReversions(into reverter: inout some Reverter<RowDocument>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.rows)
    }
}

/// Model-based: random edits, undos and redos on a controller tracking a `TreeArray`-based
/// value, checked after every operation against a history of full snapshots.
@Suite("TreeArray: history, model-based")
struct TreeArrayHistoryTests {

    @Test("Random appends, undos and redos match a snapshot history",
          arguments: RandomizedTesting.seeds(defaultIterations: 30))
    func modelBased(seed: UInt64) throws {
        var factory = RowFactory(seed: seed)
        let size = [0, 10, 300, 2_000][Int.random(in: 0..<4, using: &factory.random)]
        var document = RowDocument(name: "list", rows: TreeArray(factory.rows(size)))
        let controller = VersioningController<RowDocument, RowDocument, HistoryError>(document)
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
                for _ in 0..<Int.random(in: 1...3, using: &factory.random) {
                    factory.change(&document.rows)
                }
                if factory.random.chance(0.1) { document.name += "." }
                controller.append(document)
                if document != versions[position] {
                    versions.removeSubrange((position + 1)...)
                    versions.append(document)
                    position += 1
                }
            }
            guard document == versions[position],
                  controller.undoCount == position,
                  controller.redoCount == versions.count - 1 - position else {
                Issue.record("seed \(seed), step \(step) (roll \(roll)): the controller disagrees with the model; \(replay)")
                return
            }
            // The shape after every undo, redo and recorded step, not only at the end: a step
            // applied through the history writes the tree outside its own mutations' checks.
            document.rows._invariantCheck()
            // Lookups by id, whose index every undo, redo and recorded step must keep right.
            if factory.random.chance(0.3) {
                let id = Int.random(in: 0...(factory.nextID + 1), using: &factory.random)
                guard document.rows.index(id: id) == document.rows.firstIndex(where: { $0.id == id }) else {
                    Issue.record("seed \(seed), step \(step): index(id: \(id)) disagrees with a scan; \(replay)")
                    return
                }
                document.rows._identityInvariantCheck()
            }
        }
        while controller.undoCount > 0 { try controller.undo(&document) }
        #expect(document == versions[0], "seed \(seed)")
        while controller.redoCount > 0 { try controller.redo(&document) }
        #expect(document == versions[versions.count - 1], "seed \(seed)")
        expectValidTree(document.rows, seed: seed)
    }
}
