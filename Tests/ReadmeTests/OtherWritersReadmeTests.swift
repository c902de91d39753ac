import Revertible
import Testing
import UndoableReducer

// The examples of the "Other writers" articles (Revertible's and UndoableReducer's) and of the
// authors' doc comments, line for line (`ReadmeSyncTests` checks it).

struct Notepad: Reducer {
    struct State: Versionable, Equatable {
        var text = ""
        var savedVersion = 0

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.text)
            reverter.appendReversion(at: \.savedVersion)
        }
    }

    enum Action: Sendable {
        case type(String)
        case save
        case saved(version: Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .type(text):
            state.text += text
        case .save:
            return .run { send in send(.saved(version: 7)) }
        case let .saved(version):
            state.savedVersion = version
        }
        return .none
    }
}

struct Document: Reducer {
    struct State: Versionable, Equatable {
        var title = ""
        var body = ""

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.body)
        }
    }

    enum Action: Sendable {
        case setTitle(String, by: String)
        case setBody(String, by: String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .setTitle(title, _): state.title = title
        case let .setBody(body, _): state.body = body
        }
        return .none
    }
}

struct Cells: Versionable, Equatable {
    var a1 = ""
    var b1 = ""

    func addReversions(into reverter: inout some Reverter<Cells>) {
        reverter.appendReversion(at: \.a1)
        reverter.appendReversion(at: \.b1)
    }
}

@Suite("README examples: other writers")
struct OtherWritersReadmeTests {

    @Test("An effect's unrecorded write is left by undo")
    func effectWrite() async {
        let notepad = Store(
            initialState: UndoableState(Notepad.State()),
            reducer: Notepad().undoable(UndoableOptions(recording: { action in
                if case .saved = action { false } else { true }
            }))
        )
        notepad.send(.action(.type("Hello")))
        await notepad.send(.action(.save)).finish()
        notepad.send(.undo)
        #expect(notepad.state.present.text == "")
        #expect(notepad.state.present.savedVersion == 7)
        #expect(notepad.state.error == nil && !notepad.state.hasUndo)
    }

    @Test("Two authors each undo only their own steps")
    func twoAuthors() {
        let document = Store(
            initialState: UndoableState(Document.State()),
            reducer: Document().undoable(UndoableOptions(author: { action in
                switch action {
                case let .setTitle(_, person), let .setBody(_, person): HistoryAuthor(person)
                }
            }))
        )
        document.send(.action(.setTitle("Plan", by: "ana")))
        document.send(.action(.setBody("First draft", by: "ben")))
        document.send(.action(.setTitle("Plan B", by: "ana")))
        document.send(.undo(by: "ana")) // ben's step stays
        #expect(document.state.present.title == "Plan")
        #expect(document.state.present.body == "First draft")
        document.send(.undo(by: "ben"))
        #expect(document.state.present.title == "Plan")
        #expect(document.state.present.body == "")
        document.send(.redo(by: "ana"))
        #expect(document.state.present.title == "Plan B")
        #expect(document.state.present == Document.State(title: "Plan B", body: ""))
        #expect(document.state.steps().undo.map(\.author) == ["ana", "ben", "ana", "ana", "ben", "ana"])
    }

    @Test("Two authors: what the example's comments say, move by move")
    func twoAuthorsMoveByMove() {
        let document = Store(
            initialState: UndoableState(Document.State()),
            reducer: Document().undoable(UndoableOptions(author: { action in
                switch action {
                case let .setTitle(_, person), let .setBody(_, person): HistoryAuthor(person)
                }
            }))
        )
        document.send(.action(.setTitle("Plan", by: "ana")))
        document.send(.action(.setBody("First draft", by: "ben")))
        document.send(.action(.setTitle("Plan B", by: "ana")))
        document.send(.undo(by: "ana"))
        #expect(document.state.present == Document.State(title: "Plan", body: "First draft"))
        document.send(.undo(by: "ben"))
        #expect(document.state.present == Document.State(title: "Plan", body: ""))
        document.send(.redo(by: "ana"))
        #expect(document.state.present == Document.State(title: "Plan B", body: ""))
    }

    @Test("The controller's authors")
    func controllerAuthors() throws {
        let cells = ValueVersioningController(Cells())
        cells.author = "ana"
        cells.append(Cells(a1: "1"))
        cells.author = "ben"
        cells.append(Cells(a1: "1", b1: "2"))
        try cells.undo(by: "ana")
        #expect(cells.currentVersion == Cells(a1: "", b1: "2"))
    }

    @Test("Doc comments: HistoryAuthor and undo(by:)")
    func docComments() throws {
        let controller = ValueVersioningController(Cells())
        let edited = Cells(a1: "x")
        controller.author = "ana"
        controller.append(edited)
        try controller.undo(by: "ana")
        #expect(controller.currentVersion == Cells())

        let anaEdit = Cells(a1: "ana")
        let benEdit = Cells(a1: "ana", b1: "ben")
        controller.author = "ana"
        controller.append(anaEdit)
        controller.author = "ben"
        controller.append(benEdit)
        try controller.undo(by: "ana") // ana's edit is gone, ben's stays
        #expect(controller.currentVersion == Cells(a1: "", b1: "ben"))
    }
}
