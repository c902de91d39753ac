import Foundation
import Testing
import Revertible
import TestSupport

/// Issue 38: a per-person Undo button asks `hasUndo(by:)`, `hasRedo(by:)` and
/// `nextUndo(by:)`, which must agree exactly with what `undo(by:)` and `redo(by:)` then do.
@Suite("Authors: the per-person Undo button")
struct AuthorButtonTests {

    typealias Sheet = AuthorTests.Sheet

    @Test("hasUndo(by:) and nextUndo(by:) name the step undo(by:) takes back")
    func buttonState() throws {
        let controller = AuthorTests().twoAuthors()
        #expect(controller.hasUndo(by: "ana") && controller.hasUndo(by: "ben"))
        #expect(!controller.hasUndo(by: "cy"))
        #expect(!controller.hasRedo(by: "ana"))
        let next = try #require(controller.nextUndo(by: "ana"))
        #expect(next.author == "ana" && next.version == controller.currentVersionID)

        try controller.undo(by: "ana")
        try controller.undo(by: "ana")
        #expect(!controller.hasUndo(by: "ana"))
        #expect(controller.hasRedo(by: "ana"))
        #expect(controller.nextRedo(by: "ana")?.author == "ana")
        #expect(controller.nextUndo(by: "ben")?.author == "ben")
    }

    @Test("A step someone else overwrote has nothing left to undo under skip, but does under overwrite")
    func supersededStep() throws {
        let controller = ValueVersioningController(Sheet())
        controller.author = "ana"
        controller.append(Sheet(a: 1))
        controller.author = "ben"
        controller.append(Sheet(a: 2))
        #expect(!controller.hasUndo(by: "ana"))
        #expect(controller.hasUndo(by: "ana", onConflict: .overwrite))
        #expect(controller.hasUndo(by: "ana", onConflict: .refuse))
        let before = controller.currentVersionID
        try controller.undo(by: "ana")
        #expect(controller.currentVersionID == before)
    }

    @Test("@Versioned's projection has the button too")
    func versionedProjection() throws {
        struct Holder {
            @Versioned var sheet = Sheet()
        }
        let holder = Holder()
        holder.$sheet.author = "ana"
        holder.sheet.a = 1
        #expect(holder.$sheet.hasUndo(by: "ana"))
        #expect(holder.$sheet.nextUndo(by: "ana")?.author == "ana")
        holder.$sheet.undo(by: "ana")
        #expect(holder.sheet.a == 0)
        #expect(!holder.$sheet.hasUndo(by: "ana") && holder.$sheet.hasRedo(by: "ana"))
    }

    @Test("For random histories of several authors and another writer, the button agrees with the move", arguments: RandomizedTesting.seeds(defaultIterations: 30))
    func randomHistories(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let authors: [HistoryAuthor] = ["ana", "ben", "cy"]
        let policies: [ConflictPolicy] = [.skip, .overwrite, .refuse]
        let controller = ValueVersioningController(Sheet())
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "AuthorButtonTests")
        for operation in 0..<RandomizedTesting.operationsPerSequence {
            var sheet = controller.currentVersion
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                controller.author = authors.randomElement(using: &random)
                if Bool.random(using: &random) { sheet.a = Int.random(in: 0..<4, using: &random) } else { sheet.b = Int.random(in: 0..<4, using: &random) }
                controller.append(sheet)
            case 4:
                // Another writer: a change without a step.
                sheet.a = Int.random(in: 0..<4, using: &random)
                controller.absorb(sheet)
            case 5:
                _ = try? controller.undo()
            case 6:
                _ = try? controller.redo()
            default:
                let author = authors.randomElement(using: &random)!
                let policy = policies.randomElement(using: &random)!
                let isUndo = Bool.random(using: &random)
                let predicted = isUndo ? controller.nextUndo(by: author, onConflict: policy) : controller.nextRedo(by: author, onConflict: policy)
                #expect((predicted != nil) == (isUndo ? controller.hasUndo(by: author, onConflict: policy) : controller.hasRedo(by: author, onConflict: policy)))
                let before = controller.currentVersionID
                var refused = false
                do {
                    if isUndo { try controller.undo(by: author, onConflict: policy) } else { try controller.redo(by: author, onConflict: policy) }
                } catch {
                    refused = true
                }
                let acted = refused || controller.currentVersionID != before
                #expect(acted == (predicted != nil), "operation \(operation): \(isUndo ? "undo" : "redo")(by: \(author), onConflict: \(policy)). \(replay)")
                if let predicted, !refused {
                    #expect(controller.steps().undo.last?.label == predicted.label)
                    #expect(predicted.author == author)
                }
            }
        }
    }
}
