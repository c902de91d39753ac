import Foundation
import Revertible
import Testing
import UndoableReducer

/// `ignore` below the top of the reducer's state: an element's ignored `hover`, set by
/// recorded actions, is no step, and undo and redo leave it as the last action set it.
@Suite("Undoable: ignored properties at any depth")
struct UndoableIgnoredTests {

    struct Board: Reducer {
        struct State: Versionable, Equatable, Sendable, Codable {
            var cards: [Card] = [Card(id: 1, title: "one"), Card(id: 2, title: "two")]
            var panel = Panel()

            func addReversions(into reverter: inout some Reverter<State>) {
                reverter.appendReversion(at: \.cards)
                reverter.appendReversion(at: \.panel)
            }
        }

        struct Card: Identifiable, Versionable, Equatable, Sendable, Codable {
            let id: Int
            var title: String
            var isHovered = false

            func addReversions(into reverter: inout some Reverter<Card>) {
                reverter.appendReversion(at: \.title)
                reverter.ignore(\.isHovered)
            }
        }

        struct Panel: Versionable, Equatable, Sendable, Codable {
            var width = 200
            var scroll = 0

            func addReversions(into reverter: inout some Reverter<Panel>) {
                reverter.appendReversion(at: \.width)
                reverter.ignore(\.scroll)
            }
        }

        enum Action: Sendable, Equatable {
            case rename(Int, String)
            case hover(Int?)
            case scroll(Int)
            case resize(Int)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .rename(id, title):
                state.cards[state.cards.firstIndex { $0.id == id }!].title = title
            case let .hover(id):
                for index in state.cards.indices { state.cards[index].isHovered = state.cards[index].id == id }
            case let .scroll(offset):
                state.panel.scroll = offset
            case let .resize(width):
                state.panel.width = width
            }
            return .none
        }
    }

    private func run(_ actions: [UndoableAction<Board.Action>], from state: UndoableState<Board.State> = UndoableState(Board.State())) -> UndoableState<Board.State> {
        let reducer = Board().undoable()
        var state = state
        for action in actions { _ = reducer.reduce(into: &state, action: action) }
        return state
    }

    @Test("Actions that change only ignored fields of an element or a nested struct make no step")
    func ignoredOnlyActionsMakeNoStep() {
        let state = run([.action(.hover(1)), .action(.scroll(40)), .action(.hover(2))])
        #expect(!state.hasUndo)
        #expect(state.present.cards.map(\.isHovered) == [false, true])
        #expect(state.present.panel.scroll == 40)
    }

    @Test("A step holds only the versioned change, and undo and redo leave the ignored fields alone")
    func undoLeavesIgnoredFields() throws {
        var state = run([.action(.hover(1)), .action(.rename(1, "first")), .action(.resize(300)), .action(.hover(2)), .action(.scroll(15))])
        #expect(state.undoCount == 2)
        // Saved, a step names what it writes: the versioned fields, never the ignored ones
        // (a whole-state overwrite would save the whole state, `isHovered` and `scroll` too).
        let saved = try String(decoding: JSONEncoder().encode(state.archive), as: UTF8.self)
        #expect(saved.contains("title") && saved.contains("width"))
        #expect(!saved.contains("isHovered") && !saved.contains("scroll"), "\(saved)")

        state = run([.undo, .undo], from: state)
        #expect(state.present.cards.map(\.title) == ["one", "two"])
        #expect(state.present.panel.width == 200)
        #expect(state.present.cards.map(\.isHovered) == [false, true], "undo leaves the hover where the last action put it")
        #expect(state.present.panel.scroll == 15)

        state = run([.action(.hover(nil)), .action(.scroll(5)), .redo, .redo], from: state)
        #expect(state.present.cards.map(\.title) == ["first", "two"] && state.present.panel.width == 300)
        #expect(state.present.cards.map(\.isHovered) == [false, false])
        #expect(state.present.panel.scroll == 5)
    }
}
