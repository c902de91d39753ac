import Foundation
@testable import Revertible
import Testing
@testable import TextBuffer
@testable import UndoableReducer

/// Issue 39: a `TextBuffer` in an undoable reducer's state is lent to the run as a tree is;
/// the run's one edit is the step, made in place, and saved as comparing saves it.
@Suite("Undoable: a text's edit journaled")
struct UndoableTextJournalTests {

    struct Editor: Reducer {
        struct State: Versionable, Equatable, Sendable, Codable {
            var text: TextBuffer

            func addReversions(into reverter: inout some Reverter<State>) {
                reverter.appendReversion(at: \.text)
            }
        }

        enum Action: Sendable {
            case type(String, at: Int)
            case typeTwice(String, at: Int)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .type(typed, offset):
                state.text.insert(typed, atUTF8Offset: offset)
            case let .typeTwice(typed, offset):
                state.text.insert(typed, atUTF8Offset: offset)
                state.text.insert(typed, atUTF8Offset: offset)
            }
            return .none
        }
    }

    @Test("Keystrokes are written in place and journaled, a run of two is compared, and both save what comparing saves")
    func keystrokes() throws {
        var options = UndoableOptions<Editor.Action>(clock: TestClock())
        let journaling = Editor().undoable(options)
        options.policy.recordsWrites = false
        let comparing = Editor().undoable(options)
        let initial = Editor.State(text: TextBuffer(String(repeating: "aab ", count: 20_000)))
        var (journaled, compared) = (UndoableState(initial), UndoableState(initial))
        let actions: [Editor.Action] = [.type("a", at: 1), .type("b", at: 1), .type("é", at: 40_000), .typeTwice("x", at: 3), .type("a", at: 0)]
        for action in actions {
            _ = journaling.reduce(into: &journaled, action: .action(action))
            _ = comparing.reduce(into: &compared, action: .action(action))
        }
        #expect(journaled.engine.journaledStepCount == 4 && compared.engine.journaledStepCount == 0)
        // The history's copy lets go of the text during the run: the edit keeps the root.
        let root = ObjectIdentifier(journaled.present.text.root)
        _ = journaling.reduce(into: &journaled, action: .action(.type("z", at: 50_000)))
        _ = comparing.reduce(into: &compared, action: .action(.type("z", at: 50_000)))
        #expect(ObjectIdentifier(journaled.present.text.root) == root, "the history's copy forced a copy of the root")
        #expect(try archive(of: journaled) == archive(of: compared))
        for _ in 0..<3 {
            _ = journaling.reduce(into: &journaled, action: .undo)
            _ = comparing.reduce(into: &compared, action: .undo)
        }
        #expect(journaled.present == compared.present)
        #expect(try archive(of: journaled) == archive(of: compared))
    }
}
