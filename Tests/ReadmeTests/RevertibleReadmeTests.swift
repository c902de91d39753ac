import Foundation
import Observation
import Revertible
import Testing

// The Revertible examples of the README and of Revertible's articles (describing changes,
// keeping a history, large values, saving). Declarations are verbatim; each example body is
// the body of a test. `ReadmeSyncTests` checks that every block appears in a test file.

struct User: Versionable {
    var name: String
    var imageData: Data

    func addReversions(into reverter: inout some Reverter<User>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.imageData)
    }
}

struct Note: Versionable {
    var body: TextBuffer

    func addReversions(into reverter: inout some Reverter<Note>) {
        reverter.appendReversion(at: \.body)
    }
}

struct Activity: Identifiable, Versionable {
    let id: UUID
    var title: String
    var priority: Priority
    var childActivities: [Activity]

    enum Priority: Hashable {
        case low
        case medium(dueDate: Date?)
        case high(dueDate: Date, reason: String)
    }

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.priority)
        reverter.appendReversion(at: \.childActivities)
    }
}

extension Activity.Priority: Versionable {
    func addReversions(into reverter: inout some Reverter<Self>) {
        guard !reverter.hasChanged(at: \.caseName) else {
            reverter.appendOverwriteReversion(at: \.self)
            return
        }
        reverter.appendReversion(at: \.mediumDueDate)
        reverter.appendReversion(at: \.highDueDate)
        reverter.appendReversion(at: \.highReason)
    }

    private enum CaseName { case low, medium, high }

    private var caseName: CaseName {
        switch self {
        case .low: .low
        case .medium: .medium
        case .high: .high
        }
    }

    private var mediumDueDate: Date? {
        get { if case let .medium(dueDate) = self { dueDate } else { nil } }
        // Write nil back too: `.medium(dueDate: nil)` is a version worth restoring.
        set { if case .medium = self { self = .medium(dueDate: newValue) } }
    }

    private var highDueDate: Date? {
        get { if case let .high(dueDate, _) = self { dueDate } else { nil } }
        set { if case let .high(_, reason) = self, let newValue { self = .high(dueDate: newValue, reason: reason) } }
    }

    private var highReason: String? {
        get { if case let .high(_, reason) = self { reason } else { nil } }
        set { if case let .high(dueDate, _) = self, let newValue { self = .high(dueDate: dueDate, reason: newValue) } }
    }
}

@Observable
final class Editor {
    var activity = Activity(id: UUID(), title: "Title", priority: .low, childActivities: [])
}

struct Model {
    @Versioned var activity = Activity(id: UUID(), title: "Title", priority: .low, childActivities: [])
}

struct Drawing: Versionable {
    var shapes: [String] = []
    var hover: Int? = nil

    func addReversions(into reverter: inout some Reverter<Drawing>) {
        reverter.appendReversion(at: \.shapes)
        reverter.ignore(\.hover)
    }
}

@MainActor
@Observable
final class DocumentModel {
    var text: String
    @ObservationIgnored lazy var history = VersioningController(observing: self, at: \.text)

    init(text: String) {
        self.text = text
        _ = history // start tracking now, not at first use
    }
}

@Observable
final class Form {
    @ObservationIgnored @Versioned var name = ""
}

enum Brush: Revertible {
    case pen, marker
}

struct Palette {
    @Versioned var volume = 0
    @Versioned var brush: Brush
}

@Suite("README: Revertible")
struct RevertibleReadmeTests {

    @Test("Make a type versionable")
    func user() throws {
        var user = User(name: "", imageData: Data())
        let original = user
        user.name = "Johnny"
        let reversion = try #require(user.reversion(to: original))
        #expect(user.reversion(to: user) == nil)

        user.name = "Johnny Appleseed"
        #expect(throws: ReversionError.attemptingToRevertWrongVersion) {
            try reversion.revert(&user) // made from "Johnny": refuses, and changes nothing
        }
        #expect(user.name == "Johnny Appleseed")

        user.name = "Johnny"
        try reversion.revert(&user)
        #expect(user == original)
    }

    @Test("Nested values, collections and enums")
    func nested() throws {
        let child = Activity(id: UUID(), title: "Child", priority: .medium(dueDate: .now), childActivities: [])
        var activity = Activity(id: UUID(), title: "Title", priority: .low, childActivities: [child])
        let before = activity
        activity.childActivities[0].priority = .high(dueDate: .now, reason: "Urgent")

        let reversion = try #require(activity.reversion(to: before))
        #expect(reversion.changedKeyPaths == [\Activity.childActivities[0].priority])
        try reversion.revert(&activity)
        #expect(activity == before)
    }

    @Test("Direct tracking")
    func direct() throws {
        var activity = Activity(id: UUID(), title: "Title", priority: .low, childActivities: [])
        let controller = VersioningController(activity)

        activity.title = "New title"
        controller.append(activity)
        activity.priority = .high(dueDate: .now, reason: "Important reason")
        controller.append(activity)

        try controller.undo(&activity)
        #expect(activity.priority == .low)
        try controller.undo(&activity)
        #expect(activity.title == "Title")
        try controller.redo(&activity)
        #expect(activity.title == "New title")
    }

    @Test("An @Observable model tracked on its own")
    func observable() throws {
        let editor = Editor()
        let controller = VersioningController(observing: editor, at: \.activity)

        editor.activity.title = "New title"
        editor.activity.priority = .medium(dueDate: nil)

        try controller.undo()
        #expect(editor.activity.priority == .low)
        try controller.undo()
        #expect(editor.activity.title == "Title")
        #expect(controller.hasRedo)
    }

    @Test("Scopes, tags and transactions with @Versioned")
    func versioned() throws {
        let model = Model()

        // A transaction is one step.
        model.$activity.setWithTransaction { activity in
            activity.title = "New title"
            activity.priority = .medium(dueDate: nil)
        }
        model.$activity.undo()
        #expect(model.activity.title == "Title" && model.activity.priority == .low)

        // A scope squashes into one step when popped; undo never leaves it before.
        model.$activity.pushNewScope()
        model.activity.title = "Draft 1"
        model.activity.title = "Draft 2"
        model.$activity.popCurrentScope()
        #expect(model.$activity.undoCount == 1)

        // Tags name versions.
        model.$activity.tag("reviewed")
        model.activity.title = "Final"
        model.$activity.undo(to: "reviewed")
        #expect(model.activity.title == "Draft 2")
        #expect(model.$activity.tags().undo == [nil, "reviewed"])
    }

    @Test("Leaving a property out")
    func ignoring() throws {
        var drawing = Drawing()
        let controller = ValueVersioningController(drawing)

        drawing.shapes.append("circle")
        controller.append(drawing)
        drawing.hover = 0
        controller.append(drawing) // only `hover` changed: no step
        #expect(controller.undoCount == 1)

        try controller.undo(&drawing)
        #expect(drawing.shapes.isEmpty)
        #expect(drawing.hover == 0) // undo leaves the pointer where it is
    }

    @Test("A model that owns its controller") @MainActor
    func owningModel() throws {
        let document = DocumentModel(text: "Hello")
        document.text = "Hello, world"
        document.history.tag("saved")
        document.text = "Hello, world!"

        try document.history.undo(to: "saved")
        #expect(document.text == "Hello, world")
        #expect(document.history.location(of: "saved") == .present)
    }

    @Test("@Versioned inside an @Observable class")
    func observableVersioned() {
        let form = Form()
        form.name = "Ada"
        form.name = "Ada Lovelace"
        form.$name.undo()
        #expect(form.name == "Ada")
    }

    @Test("Basic values and memberwise initializers with @Versioned")
    func basicValues() {
        let palette = Palette(brush: .pen)
        palette.volume = 11
        palette.brush = .marker
        palette.$volume.undo()
        palette.$brush.undo()
        #expect(palette.volume == 0 && palette.brush == .pen)
    }

    @Test("Where a tag is, and what each step holds")
    func locationAndSteps() {
        let document = ValueVersioningController("")
        document.append("Hello")
        document.tag("saved")
        #expect(document.location(of: "saved") == .present)

        document.append("Hello, world")
        #expect(document.location(of: "saved") == .behind(steps: 1)) // unsaved changes

        let steps = document.steps()
        #expect(steps.undo.map(\.tags) == [["saved"], []])
        #expect(steps.redo.isEmpty)
    }

    @Test("Branches: nothing is lost")
    func branches() throws {
        let draft = ValueVersioningController("")
        draft.append("one")
        draft.append("two")
        let two = draft.currentVersionID
        try draft.undo()
        draft.append("uno") // a new branch; "two" is kept

        #expect(draft.branches(from: draft.tree()[0].version).count == 2)
        #expect(try draft.move(to: .version(two)) == "two")
        #expect(try draft.move(to: .earlier(1)) == "one")
        #expect(try draft.move(to: .later(2)) == "uno")
    }

    @Test("Saving a history: exactly, and only what changed")
    func savingAHistory() throws {
        let notes = ValueVersioningController("")
        notes.append("draft")
        notes.append("final")
        notes.tag("sent")
        let saved = try JSONEncoder().encode(notes.archive)

        // Later, in another process: the current version from your document, the history from disk.
        let reopened = ValueVersioningController("final")
        try reopened.restoreHistory(from: JSONDecoder().decode(HistoryArchive<String>.self, from: saved))
        #expect(reopened.location(of: "sent") == .present)
        #expect(try reopened.undo() == "draft")
    }

    @Test("Refusals")
    func refusals() throws {
        let controller = ValueVersioningController("a")
        controller.append("ab")
        controller.tag("saved")
        try controller.undo() // "saved" is now one step ahead

        #expect(throws: HistoryError.tagOutOfReach("saved", .ahead(steps: 1))) {
            try controller.undo(to: "saved")
        }
        #expect(throws: HistoryError.unknownTag("published")) {
            try controller.redo(to: "published")
        }
        #expect(throws: HistoryError.stepsOutOfRange(requested: 2, available: 1)) {
            try controller.redo(to: .steps(2))
        }
        #expect(throws: HistoryError.noScopeToPop) {
            try controller.popCurrentScope()
        }
        #expect(controller.error == .noScopeToPop)

        try controller.undo() // nothing to undo: a no-op, not a refusal
        #expect(controller.error == nil)
        #expect(controller.currentVersion == "a")
    }

    @Test("Testing debounced changes with TestClock")
    func testClock() throws {
        let clock = TestClock()
        let text = ValueVersioningController("", debounceInterval: .milliseconds(300), clock: clock)

        text.append("H")
        clock.advance(by: .milliseconds(100))
        text.append("Hi") // 100 ms after the last change: the same step
        clock.advance(by: .seconds(1))
        text.append("Hi!") // after a pause: a new step

        #expect(text.undoCount == 2)
        #expect(try text.undo() == "Hi")
    }

    @Test("Long text: TextBuffer")
    func textBuffer() throws {
        var note = Note(body: TextBuffer(String(repeating: "lorem ipsum ", count: 100_000)))
        let controller = VersioningController(note)
        note.body.insert("Hello, ", atUTF8Offset: 0)
        controller.append(note)
        try controller.undo(&note)
        #expect(note.body.utf8Count == 1_200_000)
    }
}
