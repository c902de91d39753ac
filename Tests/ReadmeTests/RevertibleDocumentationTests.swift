import Foundation
import Observation
import Revertible
import Testing

// The code examples of Revertible's documentation: the doc comments of its public API and the
// articles of `Revertible.docc`. Each example stands here line for line (`ReadmeSyncTests`
// checks it), after the declarations it needs; `#expect` states what the example says.

extension Activity {
    /// The activity the documentation's examples start from.
    static var mock: Activity {
        Activity(id: UUID(), title: "Title", priority: .low, childActivities: [])
    }
}

/// A tag that is not a string.
enum Checkpoint: Hashable, Sendable {
    case imported, saved
}

/// A plain enum, revertible by its conformance alone.
enum Tool: Revertible {
    case pen, eraser
}

@Observable
final class ActivityModel {
    var activity = Activity.mock
}

@Suite("Documentation examples: Revertible")
struct RevertibleDocumentationTests {

    @Test("SavingAHistory: opening a long history one step at a time")
    func openingOneStepAtATime() throws {
        let words = ValueVersioningController("")
        for word in ["one", "two", "three"] { words.append(word) }
        let store = InMemoryHistoryStepStore<String>()
        try words.saveHistory(to: store)

        // Later: the outline is read now, each step when a command first crosses it.
        let reopened = ValueVersioningController("three")
        try reopened.openHistory(from: store)
        #expect(try reopened.undo() == "two")
        #expect(store.stepReads <= 4)
        reopened.append("deux")
        try reopened.saveHistory(to: store)
        #expect(store.archive?.steps.count == 4)
    }

    @Test("HistoryArchive(json:): a saved archive read by the library's own JSON reader")
    func readingJSON() throws {
        let notes = ValueVersioningController("")
        notes.append("draft")
        notes.append("final")
        let reopened = ValueVersioningController("final")
        let saved = try JSONEncoder().encode(notes.archive)
        try reopened.restoreHistory(from: HistoryArchive(json: saved))
        #expect(try reopened.undo() == "draft")
    }

    @Test("HistoryArchive.Step(json:) and Outline(json:): the pieces a store saves apart, read by the library's own JSON reader")
    func readingPiecesJSON() throws {
        let notes = ValueVersioningController("")
        notes.append("draft")
        notes.append("final")
        let row = try JSONEncoder().encode(notes.archive.steps[0])
        let step = try HistoryArchive<String>.Step(json: row)
        #expect(step.version == notes.archive.steps[0].version)
        let saved = try JSONEncoder().encode(notes.archive.outline)
        let outline = try HistoryArchive<String>.Outline(json: saved)
        let reopened = ValueVersioningController("final")
        try reopened.restoreHistory(from: HistoryArchive(outline: outline, steps: [step, notes.archive.steps[1]]))
        #expect(try reopened.undo() == "draft")
    }

    @Test("Reversion")
    func reversion() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        let reversion = user.reversion(to: original)
        try reversion?.revert(&user) // user.name == ""
        #expect(user.name == "")
    }

    @Test("ReversionError")
    func reversionError() throws {
        var user = User(name: "", imageData: Data())
        let reversion = try #require(User(name: "Johnny", imageData: Data()).reversion(to: user))
        var other = user
        other.name = "Someone else"
        #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&other) }
        user.name = "Johnny"
        try reversion.revert(&user)
        #expect(user.name == "")
    }

    @Test("HistoryError")
    func historyError() throws {
        let controller = ValueVersioningController("a")
        controller.append("ab")
        controller.setWithoutTracking("b") // another writer changes what the step wrote
        #expect(throws: HistoryError.unknownTag("published")) { try controller.redo(to: "published") }
        let error = #expect(throws: HistoryError.self) { try controller.undo(onConflict: .refuse) }
        #expect(error?.reversionError == .conflict(controller.lastConflicts))
        if case .stepRefused(_, step: 1)? = error {} else { Issue.record("expected a refusal at step 1: \(String(describing: error))") }
        #expect(!controller.lastConflicts.isEmpty && controller.currentVersion == "b")
    }

    @Test("VersioningController.init(_:)")
    func directTracking() throws {
        var activity = Activity.mock
        let controller = VersioningController(activity)
        activity.title = "New title"
        controller.append(activity)
        try controller.undo(&activity)
        #expect(activity.title == "Title")
    }

    @Test("VersioningController.init(observing:at:)")
    func observing() throws {
        let model = ActivityModel()
        let controller = VersioningController(observing: model, at: \.activity)
        model.activity.title = "New title"
        try controller.undo() // model.activity.title == "Title"
        #expect(model.activity.title == "Title")
    }

    @Test("VersionedProperty")
    func versionedProperty() {
        struct Model {
            @Versioned var activity = Activity.mock
        }
        let model = Model()
        model.activity.title = "New title"
        model.$activity.undo() // model.activity.title == "Title"
        #expect(model.activity.title == "Title")
    }

    @Test("ThrowingVersioned")
    func throwingVersioned() throws {
        @ThrowingVersioned var activity = Activity.mock
        activity.title = "New title"
        try $activity.undo() // activity.title == "Title"
        #expect(activity.title == "Title")
    }

    @Test("HistoryTag")
    func historyTag() throws {
        let controller = ValueVersioningController("data")
        let imported = "data, imported"
        controller.tag("before import")
        controller.append(imported)
        try controller.undo(to: "before import")
        #expect(controller.currentVersion == "data")
    }

    @Test("HistoryDestination")
    func historyTarget() throws {
        let clock = TestClock()
        let controller = VersioningController("", clock: clock)
        controller.tag(Checkpoint.saved)
        for text in ["a", "ab", "abc"] {
            clock.advance(by: .seconds(300))
            controller.append(text)
        }
        controller.tag("before import")
        let saved = controller.currentVersionID
        clock.advance(by: .seconds(300))
        controller.append("abc, imported")

        try controller.undo(to: "before import")
        try controller.undo(to: .steps(3))
        try controller.undo(to: .oldest)                 // where the scope started
        try controller.move(to: .earlier(3))             // the state three changes ago, in time
        try controller.move(to: .later(by: .seconds(600)))
        try controller.move(to: .version(saved))
        #expect(controller.currentVersion == "abc")
        try controller.move(to: .later(by: .seconds(600)))
        #expect(controller.currentVersion == "abc, imported")
        try controller.undo(to: .tag(Checkpoint.saved))
        #expect(controller.currentVersion == "")
    }

    @Test("HistoryTagLocation")
    func historyTagLocation() {
        let controller = ValueVersioningController("draft")
        controller.tag("saved")
        if controller.location(of: "saved") == .present { /* the document is saved */ }
        #expect(controller.location(of: "saved") == .present)
    }

    @Test("TestClock")
    func testClock() {
        let clock = TestClock()
        let controller = VersioningController("", debounceInterval: .milliseconds(500), clock: clock)
        controller.append("a")
        clock.advance(by: .milliseconds(10))
        controller.append("ab") // joins the burst: one step
        #expect(controller.undoCount == 1)
    }

    @Test("Revertible: a plain enum in one line")
    func plainEnum() throws {
        let tool = ValueVersioningController(Tool.pen)
        tool.append(.eraser)
        #expect(try tool.undo() == .pen)
    }

    @Test("Differences from the seed API: tags of any type")
    func tagsOfAnyType() throws {
        let controller = ValueVersioningController("")
        controller.append("data")
        controller.tag(Checkpoint.imported)
        controller.append("data, edited")

        try controller.undo(to: .tag(Checkpoint.imported))
        #expect(controller.currentVersion == "data")
    }

    @Test("Differences from the seed API: matching a wrong-version refusal")
    func matchingWrongVersion() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        let reversion = try #require(user.reversion(to: original))
        user.name = "Johnny Appleseed"

        do {
            try reversion.revert(&user)
        } catch ReversionError.attemptingToRevertWrongVersion {
            // Nothing was changed.
        } catch {
            // Another refusal: switch over `error`.
        }
        #expect(user.name == "Johnny Appleseed")
    }

    @Test("HistoryVersion and HistoryDestination: moving through the tree of versions")
    func movingThroughTheTree() throws {
        let clock = TestClock()
        let controller = VersioningController("draft", clock: clock)
        controller.append("before")
        controller.tag("before import")
        let saved = controller.currentVersionID
        for text in ["one", "two", "three", "four"] {
            clock.advance(by: .seconds(300))
            controller.append(text)
        }
        try controller.undo(to: .steps(2))
        controller.append("another branch")
        #expect(controller.branches(from: controller.tree()[2].version).count == 2)

        try controller.move(to: .earlier(3))            // the state three changes ago, in time
        try controller.move(to: .later(by: .seconds(600)))
        try controller.move(to: .tag("before import"))
        try controller.move(to: .version(saved))
        #expect(controller.currentVersion == "before")
        try controller.move(to: .earlier(1))
        #expect(controller.currentVersion == "draft")
        try controller.move(to: .later(3))
        #expect(controller.currentVersion == "two")
        try controller.move(to: .later(by: .seconds(600)))
        #expect(controller.currentVersion == "another branch")
        try controller.move(to: .earlier(by: .seconds(600)))
        #expect(controller.currentVersion == "two")
    }

    @Test("HistoryVersion: a saved version to come back to")
    func savedVersion() throws {
        let controller = VersioningController("draft")
        controller.append("edited")
        let saved = controller.currentVersionID
        try controller.move(to: .version(saved))
        #expect(controller.currentVersion == "edited")
    }

    @Test("TreeArray: a large identifiable list in a versionable value")
    func treeArrayInAVersionableValue() throws {
        struct Card: Identifiable, Versionable, Sendable {
            let id: Int
            var title: String

            func addReversions(into reverter: inout some Reverter<Card>) {
                reverter.appendReversion(at: \.title)
            }
        }
        struct Board: Versionable {
            var cards: TreeArray<Card>

            func addReversions(into reverter: inout some Reverter<Board>) {
                reverter.appendReversion(at: \.cards)
            }
        }
        var board = Board(cards: TreeArray((0..<1_000).map { Card(id: $0, title: "card \($0)") }))
        let controller = VersioningController(board)
        board.cards[500].title = "edited"
        controller.append(board)
        #expect(controller.undoCount == 1)
        try controller.undo(&board)
        #expect(board.cards[500].title == "card 500")
    }

    @Test("TreeArray.subscript(id:): an element found and written by its id")
    func treeArraySubscriptByID() {
        enum Color { case black, red }
        struct Shape: Identifiable {
            let id: Int
            var color: Color
        }
        var shapes = TreeArray((0..<1_000).map { Shape(id: $0, color: .black) })
        let circle = shapes[700]
        shapes[id: circle.id]?.color = .red
        #expect(shapes[700].color == .red)
        #expect(shapes.filter { $0.color == .red }.count == 1)
    }
}

/// The examples of the oldest/newest destinations and of ending a group early.
extension RevertibleDocumentationTests {

    @Test("HistoryDestination: moves through the tree, to its ends")
    func destinations() throws {
        let clock = TestClock()
        let controller = VersioningController("draft", clock: clock)
        controller.append("before")
        controller.tag("before import")
        let saved = controller.currentVersionID
        for text in ["one", "two", "three", "four"] {
            clock.advance(by: .seconds(300))
            controller.append(text)
        }

        try controller.move(to: .earlier(3))            // the state three changes ago, in time
        try controller.move(to: .later(by: .seconds(600)))
        try controller.move(to: .tag("before import"))
        try controller.move(to: .version(saved))
        try controller.move(to: .oldest)                 // where the scope started
        #expect(controller.currentVersion == "draft")
        try controller.move(to: .newest)
        #expect(controller.currentVersion == "four")
    }

    @Test("stopGrouping: a burst ended early")
    func stopGrouping() {
        let controller = VersioningController("")
        controller.withDebouncing(interval: .seconds(1))
        controller.append("Hello")
        controller.stopGrouping()
        controller.append("Hello, world") // a step of its own
        #expect(controller.undoCount == 2)
    }

    @Test("HistoryView: one look at a history")
    func historyView() {
        let controller = ValueVersioningController("Hello")
        controller.append("Hello, world")
        controller.tag("greeting")
        let history = controller.history
        // history.undoCount == 1, history.currentVersionTags == ["greeting"]
        #expect(history.undoCount == 1 && history.currentVersionTags == ["greeting"])
    }
}
