import Revertible
import StateMachine
import Testing

/// A discrete state held as a value is tracked and undone like any other field.
@Suite("Undoable discrete state")
struct UndoableStateTests {

    enum Editor: DiscreteState {
        case browsing
        case editing(itemID: Int)
        case confirming(prompt: String)

        func canTransition(to next: Editor) -> Bool {
            switch (self, next) {
            case (.browsing, .confirming): false
            default: true
            }
        }
    }

    struct Screen: Versionable {
        var editor = Editor.browsing
        var items: [String] = []

        func addReversions(into reverter: inout some Reverter<Screen>) {
            reverter.appendReversion(at: \.editor)
            reverter.appendReversion(at: \.items)
        }
    }

    @Test("A state change is one undo step and undo restores the previous state")
    func undoStateChange() throws {
        var screen = Screen()
        let controller = VersioningController(screen)

        try screen.editor.transition(to: .editing(itemID: 7))
        controller.append(screen)
        screen.items.append("milk")
        try screen.editor.transition(to: .confirming(prompt: "Save?"))
        controller.append(screen)

        try controller.undo(&screen)
        #expect(screen.editor == .editing(itemID: 7))
        #expect(screen.items.isEmpty)
        try controller.undo(&screen)
        #expect(screen.editor == .browsing)
        try controller.redo(&screen)
        #expect(screen.editor == .editing(itemID: 7))
    }

    @Test("A forbidden transition records nothing")
    func forbiddenTransitionRecordsNothing() {
        var screen = Screen()
        let controller = VersioningController(screen)
        #expect(throws: StateError.self) { try screen.editor.transition(to: .confirming(prompt: "?")) }
        controller.append(screen)
        #expect(!controller.hasUndo)
        #expect(screen.editor == .browsing)
    }
}
