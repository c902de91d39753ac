// The code of StateMachine's "Using states" article (and of the README's tour of the module),
// block by block. Declarations stand at file scope; each example is the body of a test.
import StateMachine
import Testing

@MainActor
final class MyView: @MainActor Stateful {
    var state: Any?

    /// The opacity the view draws with.
    private(set) var alpha: Float = 1

    func stateDidChange(from oldState: Any?, to newState: Any?) {
        alpha = (newState as? Disabled)?.opacity ?? 1
    }
}

extension MyView {
    struct Normal: State, Sendable {
        typealias Owner = MyView
    }

    struct Disabled: State, Sendable {
        typealias Owner = MyView
        var opacity: Float
    }

    struct Highlighted: State, Sendable {
        typealias Owner = MyView
        static var successors: Successors<MyView> { .only(Normal.self) }
        let color: Int
    }
}

enum EditorMode: DiscreteState, Codable {
    case browsing
    case editing(itemID: Int)
    case saving

    /// Finish with one item before starting on another.
    func canTransition(to next: EditorMode) -> Bool {
        switch (self, next) {
        case (.browsing, .editing), (.editing, .saving), (.editing, .browsing), (.saving, .browsing):
            true
        default:
            false
        }
    }
}

struct EditorState: Hashable, Sendable, Codable {
    var items: [String] = []
    var mode = EditorMode.browsing
}

@MainActor
@Suite("README examples")
struct ReadmeExamplesTests {
    @Test("Changing and reading the state")
    func changingAndReading() throws {
        let aView = MyView()

        aView.set(MyView.Disabled(opacity: 0.3))
        try aView.update(MyView.Disabled.self) { $0.opacity += 0.2 }
        #expect(aView.currentState(as: MyView.Disabled.self)?.opacity == 0.5)
        #expect(aView.alpha == 0.5)

        #expect(throws: StateError.self) {
            try aView.update(MyView.Highlighted.self) { _ in }
        }
        #expect(aView.isIn(MyView.Disabled.self))

        aView.resetCurrentState()
        #expect(aView.state == nil)
        #expect(aView.alpha == 1)
    }

    @Test("Transition rules")
    func transitionRules() throws {
        let aView = MyView()

        try aView.transition(to: MyView.Highlighted(color: 1))
        #expect(throws: StateError.self) {
            try aView.transition(to: MyView.Disabled(opacity: 0.3))
        }
        #expect(aView.currentState(as: MyView.Highlighted.self)?.color == 1)

        try aView.transition(to: MyView.Normal())
        #expect(aView.isIn(MyView.Normal.self))
    }

    @Test("Discrete states inside values")
    func discreteStatesInsideValues() throws {
        var editor = EditorState()

        try editor.mode.transition(to: .editing(itemID: 1))
        #expect(throws: StateError.self) {
            try editor.mode.transition(to: .editing(itemID: 2))
        }
        #expect(editor.mode == .editing(itemID: 1))
    }
}
