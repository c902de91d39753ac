import Observation
import Revertible
import Testing

/// Features that each work alone, combined the way users combined them (issue "History: one
/// vocabulary in every layer, and every feature composes with every other").
@Suite("Features compose: debouncing, transactions, scopes, limits, untracked changes, ignored properties")
struct FeatureCombinationTests {

    // MARK: 1. A transaction is a step of its own, never part of a debounced burst

    @Test("A transaction right after a debounced change is its own step (direct controller)")
    func transactionClosesBurst() throws {
        let clock = TestClock()
        let controller = VersioningController("", debounceInterval: .milliseconds(500), clock: clock)
        controller.append("a")
        clock.advance(by: .milliseconds(10))
        controller.setWithTransaction { $0 += "-TX" }
        #expect(controller.undoCount == 2)
        #expect(try controller.undo() == "a")
        #expect(try controller.undo() == "")
    }

    @Test("A transaction right after a debounced change is its own step (@Versioned)")
    func transactionClosesBurstInPropertyWrapper() {
        let clock = TestClock()
        struct Document {
            @Versioned var text: String

            // The memberwise initializer takes the plain value; a configured wrapper is set here.
            init(clock: TestClock) {
                _text = Versioned(wrappedValue: "", debounceInterval: .milliseconds(500), clock: clock)
            }
        }
        let document = Document(clock: clock)
        document.text = "a"
        clock.advance(by: .milliseconds(10))
        document.$text.setWithTransaction { $0 += "-TX" }
        #expect(document.$text.undoCount == 2)
        document.$text.undo()
        #expect(document.text == "a")
    }

    @Test("A transaction right after a debounced change is its own step (observing controller)")
    func transactionClosesBurstWhenObserving() throws {
        let clock = TestClock()
        let model = TextModel()
        let controller = VersioningController(observing: model, at: \.text, debounceInterval: .milliseconds(500), clock: clock)
        model.text = "a"
        clock.advance(by: .milliseconds(10))
        controller.setWithTransaction { $0 += "-TX" }
        #expect(controller.undoCount == 2)
        try controller.undo()
        #expect(model.text == "a")
    }

    @Test("A tag, a scope push and pop, undo and redo each close a burst")
    func commandsCloseBurst() throws {
        let clock = TestClock()
        let controller = VersioningController("", debounceInterval: .seconds(1), clock: clock)
        let commands: [(VersioningController<String, String, HistoryError>) throws -> Void] = [
            { $0.tag("t") },
            { $0.pushNewScope(); try $0.popCurrentScope() },
            { try $0.undo(); try $0.redo() },
        ]
        for (index, command) in commands.enumerated() {
            clock.advance(by: .seconds(10))
            controller.append(controller.currentVersion + "a")
            try command(controller)
            clock.advance(by: .milliseconds(1))
            controller.append(controller.currentVersion + "b")
            #expect(controller.undoCount == 2 * (index + 1), "command \(index)")
        }
    }

    // MARK: 2. setWithoutTracking on an observing controller

    @Test("setWithoutTracking on an observing controller writes the model, records nothing, and undo keeps working")
    func setWithoutTrackingObserving() throws {
        let model = NoteModel()
        let controller = VersioningController(observing: model, at: \.note)
        model.note.title = "Draft"
        controller.setWithoutTracking(Note(title: "Draft", cursor: 7))
        #expect(model.note == Note(title: "Draft", cursor: 7))
        #expect(controller.undoCount == 1)
        try controller.undo()
        #expect(model.note == Note(title: "", cursor: 7), "undo takes back the title, not the untracked cursor")
        #expect(controller.error == nil && !controller.hasUndo)
        try controller.redo()
        #expect(model.note == Note(title: "Draft", cursor: 7))
    }

    // MARK: 3. A trimmed scope keeps its start as a reversion, not a snapshot

    @Test("Abandoning a scope the limit trimmed keeps changes made without tracking")
    func trimmedScopeKeepsUntrackedChanges() throws {
        var note = Note(title: "", cursor: 0)
        let controller = VersioningController(note, historyLimit: 1)
        controller.pushNewScope()
        for title in ["a", "ab", "abc"] {
            note.title = title
            controller.append(note)
        }
        note.cursor = 42
        controller.setWithoutTracking(note)
        try controller.undoAndPopCurrentScope(&note)
        #expect(note == Note(title: "", cursor: 42))
        #expect(controller.scopeLevel == 0)
    }

    @Test("Popping a scope the limit trimmed squashes all of it, keeping changes made without tracking")
    func trimmedScopePops() throws {
        var note = Note(title: "", cursor: 0)
        let controller = VersioningController(note, historyLimit: 1)
        controller.pushNewScope()
        for title in ["a", "ab", "abc"] {
            note.title = title
            controller.append(note)
        }
        note.cursor = 42
        controller.setWithoutTracking(note)
        try controller.popCurrentScope()
        #expect(controller.undoCount == 1 && controller.steps().undo[0].changeCount == 3)
        try controller.undo(&note)
        #expect(note == Note(title: "", cursor: 42))
    }

    // MARK: 5. Ignored properties

    @Test("A change only in an ignored property makes no step, and undo never writes it")
    func ignoredProperty() throws {
        var drawing = Drawing()
        let controller = VersioningController(drawing)
        drawing.hover = Point(x: 1, y: 1)
        controller.append(drawing)
        #expect(!controller.hasUndo)
        drawing.shapes.append(Point(x: 5, y: 5))
        drawing.hover = Point(x: 2, y: 2)
        controller.append(drawing)
        drawing.hover = Point(x: 3, y: 3)
        controller.append(drawing)
        #expect(controller.undoCount == 1)
        try controller.undo(&drawing)
        #expect(drawing.shapes.isEmpty && drawing.hover == Point(x: 3, y: 3))
        try controller.redo(&drawing)
        #expect(drawing.shapes.count == 1 && drawing.hover == Point(x: 3, y: 3))
        #expect(controller.currentVersion.hover == Point(x: 3, y: 3), "the history's copy keeps the latest hover")
    }

    @Test("A property neither registered nor ignored is still restored, as a whole value")
    func unregisteredPropertyIsOverwritten() throws {
        var drawing = Drawing()
        let controller = VersioningController(drawing)
        drawing.unregistered = 9
        controller.append(drawing)
        #expect(controller.undoCount == 1)
        drawing.hover = Point(x: 4, y: 4)
        try controller.undo(&drawing)
        #expect(drawing.unregistered == 0 && drawing.hover == Point(x: 4, y: 4))
    }

    // MARK: 6. Refusals say what and where

    @Test("A wrong version names the location that refused and the step of the move")
    func refusalNamesLocation() throws {
        var note = Note(title: "", cursor: 0)
        let controller = VersioningController(note)
        for title in ["a", "b"] {
            note.title = title
            controller.append(note)
        }
        controller.setWithoutTracking(Note(title: "changed", cursor: 0))
        do {
            try controller.undo(to: .steps(2), onConflict: .refuse)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.isConflict)
            #expect(error.reversionError?.keyPath == #"\Note.title"#)
            if case .stepRefused(_, step: 1) = error {} else { Issue.record("expected a refusal at step 1: \(error)") }
            #expect(error.localizedDescription.contains(#"\Note.title"#))
        }
        #expect(controller.currentVersion.title == "changed" && controller.undoCount == 2)
    }

    @Test("Where a tag is: present, behind, ahead, outside the scope, unknown")
    func tagLocations() throws {
        let controller = VersioningController("0")
        controller.tag("zero")
        controller.append("1")
        controller.append("2", tag: "two")
        #expect(controller.location(of: "two") == .present)
        #expect(controller.location(of: "zero") == .behind(steps: 2))
        try controller.undo()
        #expect(controller.location(of: "two") == .ahead(steps: 1))
        controller.pushNewScope()
        controller.append("5")
        #expect(controller.location(of: "zero") == .outsideCurrentScope(level: 0))
        #expect(controller.location(of: "nope") == .unknown)
        #expect(throws: HistoryError.tagOutOfReach("zero", .outsideCurrentScope(level: 0))) { try controller.undo(to: "zero") }
        controller.tag("five")
        controller.tag("also five")
        #expect(controller.currentVersionTags == ["five", "also five"])
    }
}

// MARK: - Models

@Observable
final class TextModel {
    var text = ""
}

struct Note: Versionable, Sendable {
    var title: String
    var cursor: Int

    func addReversions(into reverter: inout some Reverter<Note>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.cursor)
    }
}

@Observable
final class NoteModel {
    var note = Note(title: "", cursor: 0)
}

struct Point: Equatable, Sendable {
    var x: Int
    var y: Int
}

/// A drawing whose pointer position is ignored, and one property its conformance forgot.
struct Drawing: Versionable, Sendable {
    var shapes: [Point] = []
    var hover = Point(x: 0, y: 0)
    var unregistered = 0

    func addReversions(into reverter: inout some Reverter<Drawing>) {
        reverter.appendReversion(at: \.shapes)
        reverter.ignore(\.hover)
    }
}
