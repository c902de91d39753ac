import Foundation
@testable import Revertible
import Testing
import TestSupport
@testable import UndoableReducer

/// Issue 39: a state with padding between its properties (an `Int?` is 9 bytes, and the tree
/// after it starts 7 bytes later) is lent to the reducer and journaled like any other, with
/// the same steps as comparing.
@Suite("Undoable journal: a state with padding is journaled")
struct UndoablePaddedStateJournalTests {

    @Test("Writes to the tree beside an optional are journaled and give the steps comparing gives")
    func journalsPaddedState() throws {
        let start = PaddedBoard(cards: TreeArray((0..<200).map { ShapedCard(id: $0, title: "card \($0)") }))
        var options = UndoableOptions<PaddedBoard.Action>(clock: TestClock())
        let journaling = PaddedBoard.Writer().undoable(options)
        options.policy.recordsWrites = false
        let comparing = PaddedBoard.Writer().undoable(options)
        var journaled = UndoableState(start)
        var compared = journaled
        let actions: [PaddedBoard.Action] = [
            .rename(at: 3, "three"), .select(5), .rename(at: 4, "four"), .insert(id: 900, at: 2),
            .renameAndSelect(at: 6, nil), .remove(at: 1), .select(7), .rename(at: 8, "eight"),
        ]
        var journaledSteps = 0
        for action in actions {
            let before = journaled.engine.journaledStepCount
            _ = journaling.reduce(into: &journaled, action: .action(action))
            _ = comparing.reduce(into: &compared, action: .action(action))
            journaledSteps += journaled.engine.journaledStepCount - before
            #expect(journaled.present == compared.present && journaled.steps() == compared.steps(), "after \(action)")
        }
        // Every action that writes the tree, after a selection was set and cleared too.
        #expect(journaledSteps == actions.filter(\.writesTree).count)
        #expect(try archive(of: journaled) == archive(of: compared))
        for _ in actions {
            _ = journaling.reduce(into: &journaled, action: .undo)
            _ = comparing.reduce(into: &compared, action: .undo)
            #expect(journaled.present == compared.present && journaled.error == nil)
        }
        #expect(journaled.present == start)
        // A loaded history journals too.
        var loaded = try JSONDecoder().decode(UndoableState<PaddedBoard>.self, from: JSONEncoder().encode(journaled))
        let before = loaded.engine.journaledStepCount
        _ = journaling.reduce(into: &loaded, action: .action(.rename(at: 9, "nine")))
        #expect(loaded.engine.journaledStepCount == before + 1)
    }
}

/// A state whose optional selection, stored before the tree, leaves 7 bytes of padding.
struct PaddedBoard: Versionable, Equatable, Sendable, Codable {
    var selection: Int?
    var cards: TreeArray<ShapedCard>

    func addReversions(into reverter: inout some Reverter<PaddedBoard>) {
        reverter.appendReversion(at: \.selection)
        reverter.appendReversion(at: \.cards)
    }

    enum Action: Sendable, Equatable {
        case rename(at: Int, String)
        case insert(id: Int, at: Int)
        case remove(at: Int)
        case select(Int?)
        case renameAndSelect(at: Int, Int?)

        var writesTree: Bool {
            if case .select = self { false } else { true }
        }
    }

    struct Writer: Reducer {
        func reduce(into state: inout PaddedBoard, action: Action) -> Effect<Action> {
            switch action {
            case let .rename(at, title): state.cards[at].title = title
            case let .insert(id, at): state.cards.insert(ShapedCard(id: id, title: "new"), at: at)
            case let .remove(at): state.cards.remove(at: at)
            case let .select(selection): state.selection = selection
            case let .renameAndSelect(at, selection):
                state.cards[at].title += "!"
                state.selection = selection
            }
            return .none
        }
    }
}
