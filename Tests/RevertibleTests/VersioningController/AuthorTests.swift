import Foundation
import Testing
import Revertible

/// Issue 24, item 4: steps carry authors, and `undo(by:)`/`redo(by:)` take back one author's
/// steps only, selectively, over everyone else's later steps.
@Suite("Authors")
struct AuthorTests {

    struct Sheet: Versionable, Codable, Equatable {
        var a = 0
        var b = 0
        var note = ""

        func addReversions(into reverter: inout some Reverter<Sheet>) {
            reverter.appendReversion(at: \.a)
            reverter.appendReversion(at: \.b)
            reverter.appendReversion(at: \.note)
        }
    }

    /// ana writes `a` twice, ben writes `b` in between: the shared document of the issue.
    func twoAuthors() -> ValueVersioningController<Sheet> {
        let controller = ValueVersioningController(Sheet())
        controller.author = "ana"
        controller.append(Sheet(a: 1))
        controller.author = "ben"
        controller.append(Sheet(a: 1, b: 1))
        controller.author = "ana"
        controller.append(Sheet(a: 2, b: 1))
        return controller
    }

    @Test("Steps carry the author set when they were recorded")
    func stepsShowAuthors() {
        let controller = twoAuthors()
        controller.author = nil
        controller.append(Sheet(a: 2, b: 1, note: "x"))
        #expect(controller.steps().undo.map(\.author) == ["ana", "ben", "ana", nil])
        #expect(controller.tree().map(\.author) == ["ana", "ben", "ana", nil])
    }

    @Test("undo(by:) takes back that author's newest step and leaves the other's later step")
    func undoByLeavesOthers() throws {
        let controller = twoAuthors()
        #expect(try controller.undo(by: "ana") == Sheet(a: 1, b: 1))
        #expect(try controller.undo(by: "ana") == Sheet(a: 0, b: 1))
        // Nothing of ana's is left: a no-op, as an Undo button with nothing to undo.
        #expect(try controller.undo(by: "ana") == Sheet(a: 0, b: 1))
        #expect(try controller.undo(by: "ben") == Sheet())
        // Per-author undo is recorded as steps: the history never moved back past ben's.
        #expect(controller.undoCount == 6)
        #expect(controller.steps().undo.map(\.author) == ["ana", "ben", "ana", "ana", "ana", "ben"])
    }

    @Test("redo(by:) takes back the author's undos, newest first")
    func redoByAuthor() throws {
        let controller = twoAuthors()
        try controller.undo(by: "ana")
        try controller.undo(by: "ana")
        controller.author = "ben"
        controller.append(Sheet(a: 0, b: 5))
        #expect(try controller.redo(by: "ana") == Sheet(a: 1, b: 5))
        #expect(try controller.redo(by: "ana") == Sheet(a: 2, b: 5))
        #expect(try controller.redo(by: "ana") == Sheet(a: 2, b: 5))
        // And undo again after the redo.
        #expect(try controller.undo(by: "ana") == Sheet(a: 1, b: 5))
    }

    @Test("A new ordinary step by the author ends that author's redo, not the other's")
    func newStepClearsRedo() throws {
        let controller = twoAuthors()
        try controller.undo(by: "ana")
        try controller.undo(by: "ben")
        controller.author = "ana"
        controller.append(Sheet(a: 1, b: 0, note: "ana"))
        #expect(try controller.redo(by: "ana") == Sheet(a: 1, b: 0, note: "ana"))
        #expect(try controller.redo(by: "ben") == Sheet(a: 1, b: 1, note: "ana"))
    }

    @Test("A location another author changed since is skipped by default, and refused on request")
    func conflicts() throws {
        let controller = ValueVersioningController(Sheet())
        controller.author = "ana"
        controller.append(Sheet(a: 1, note: "ana"))
        controller.author = "ben"
        controller.append(Sheet(a: 1, note: "ben"))
        #expect(throws: HistoryError.self) { try controller.undo(by: "ana", onConflict: .refuse) }
        if case let .conflict(conflicts)? = controller.error?.reversionError {
            #expect(conflicts.map(\.location) == ["\\Sheet.note"])
        } else {
            Issue.record("expected a conflict, got \(String(describing: controller.error))")
        }
        #expect(controller.currentVersion == Sheet(a: 1, note: "ben") && controller.undoCount == 2)
        #expect(try controller.undo(by: "ana") == Sheet(a: 0, note: "ben"))
        #expect(controller.error == nil)
        #expect(try controller.redo(by: "ana") == Sheet(a: 1, note: "ben"))
    }

    @Test("A step whose every location someone else rewrote is passed over, never stalling undo")
    func supersededStep() throws {
        let controller = ValueVersioningController(Sheet())
        controller.author = "ana"
        controller.append(Sheet(a: 1))
        controller.append(Sheet(a: 1, note: "ana"))
        controller.author = "ben"
        controller.append(Sheet(a: 1, note: "ben"))
        // ana's newest step wrote only `note`, which ben rewrote: the next older one goes.
        #expect(try controller.undo(by: "ana") == Sheet(a: 0, note: "ben"))
        #expect(try controller.undo(by: "ana") == Sheet(a: 0, note: "ben"))
        #expect(controller.undoCount == 4)
    }

    @Test("Plain undo takes back a per-author undo like any step, and the author's step is undoable again")
    func plainUndoOfAuthorUndo() throws {
        let controller = twoAuthors()
        try controller.undo(by: "ana")
        try controller.undo()
        #expect(controller.currentVersion == Sheet(a: 2, b: 1))
        #expect(try controller.undo(by: "ana") == Sheet(a: 1, b: 1))
    }

    @Test("A debounced burst never joins steps of different authors")
    func groupsKeepAuthorsApart() {
        let clock = TestClock()
        let controller = ValueVersioningController(Sheet())
        controller.withDebouncing(clock: clock, interval: .seconds(1))
        controller.author = "ana"
        controller.append(Sheet(a: 1))
        controller.append(Sheet(a: 2))
        controller.author = "ben"
        controller.append(Sheet(a: 2, b: 1))
        #expect(controller.steps().undo.map(\.author) == ["ana", "ben"])
        #expect(controller.steps().undo.map(\.changeCount) == [2, 1])
    }

    @Test("A popped scope's step has the author its steps share, or none")
    func poppedScopeAuthor() throws {
        let controller = ValueVersioningController(Sheet())
        controller.author = "ana"
        controller.pushNewScope()
        controller.append(Sheet(a: 1))
        controller.append(Sheet(a: 2))
        try controller.popCurrentScope()
        controller.pushNewScope()
        controller.append(Sheet(a: 2, b: 1))
        controller.author = "ben"
        controller.append(Sheet(a: 2, b: 2))
        try controller.popCurrentScope()
        #expect(controller.steps().undo.map(\.author) == ["ana", nil])
    }

    @Test("A scope past the limit keeps the author of the steps it folds into its start")
    func foldedStartAuthor() throws {
        let controller = ValueVersioningController(Sheet())
        controller.historyLimit = 1
        controller.author = "ana"
        controller.pushNewScope()
        for value in 1...4 { controller.append(Sheet(a: value)) }
        try controller.popCurrentScope()
        #expect(controller.steps().undo.map(\.author) == ["ana"])
        #expect(try controller.undo(by: "ana") == Sheet())
    }

    @Test("An archive keeps authors and per-author undos; a reloaded history redoes them")
    func archiveKeepsAuthors() throws {
        let controller = twoAuthors()
        try controller.undo(by: "ana")
        let data = try JSONEncoder().encode(controller.archive)
        let archive = try JSONDecoder().decode(HistoryArchive<Sheet>.self, from: data)
        #expect(archive.steps.map(\.author) == ["ana", "ben", "ana", "ana"])
        let reloaded = ValueVersioningController(controller.currentVersion)
        try reloaded.restoreHistory(from: archive)
        #expect(reloaded.steps().undo.map(\.author) == ["ana", "ben", "ana", "ana"])
        #expect(try reloaded.redo(by: "ana") == Sheet(a: 2, b: 1))
        #expect(try reloaded.undo(by: "ana") == Sheet(a: 1, b: 1))
        #expect(try reloaded.undo(by: "ana") == Sheet(a: 0, b: 1))
    }

    @Test("An archive saved before authors loads with none, and its checksums still verify")
    func oldArchiveLoads() throws {
        let controller = ValueVersioningController(Sheet())
        controller.append(Sheet(a: 1))
        let data = try JSONEncoder().encode(controller.archive)
        let json = String(decoding: data, as: UTF8.self)
        // Nothing author-related is written for a step without author: this is the old format.
        #expect(!json.contains("author") && json.contains("\"sum\""))
        let archive = try JSONDecoder().decode(HistoryArchive<Sheet>.self, from: data)
        let reloaded = ValueVersioningController(Sheet(a: 1))
        try reloaded.restoreHistory(from: archive)
        #expect(reloaded.steps().undo.map(\.author) == [nil])
    }

    @Test("The checksum covers the author: a step whose author was changed is refused")
    func checksumCoversAuthor() throws {
        let controller = ValueVersioningController(Sheet())
        controller.author = "ana"
        controller.append(Sheet(a: 1))
        let json = String(decoding: try JSONEncoder().encode(controller.archive), as: UTF8.self)
        #expect(json.contains("\"author\":\"ana\""))
        let damaged = json.replacingOccurrences(of: "\"author\":\"ana\"", with: "\"author\":\"ben\"")
        let archive = try JSONDecoder().decode(HistoryArchive<Sheet>.self, from: Data(damaged.utf8))
        let reloaded = ValueVersioningController(Sheet(a: 1))
        #expect(throws: HistoryArchiveError.self) { try reloaded.restoreHistory(from: archive) }
        #expect(reloaded.undoCount == 0)
    }

    @Test("Authors of any Hashable and Sendable type, and their literals, compare by value")
    func authorValues() {
        #expect(HistoryAuthor("ana") == "ana")
        #expect(HistoryAuthor(7) == 7)
        #expect(HistoryAuthor(HistoryAuthor("ana")) == "ana")
        #expect(HistoryAuthor("7") != 7)
        #expect(HistoryAuthor(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!).description == "00000000-0000-0000-0000-000000000001")
    }
}
