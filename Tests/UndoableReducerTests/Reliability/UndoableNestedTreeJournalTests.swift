import Foundation
@testable import Revertible
import Testing
import TestSupport
@testable import UndoableReducer

/// Issue 39: a tree inside a stored struct of the state (registered by the struct, which the
/// state registers in turn) is not lent to the reducer: only trees the state registers itself
/// are (LargeValues.md). Its runs are compared, and must give exactly the steps a history
/// that never journals gives, alone, beside a lent tree, and sharing storage with one.
@Suite("Undoable journal: a tree nested in a stored struct")
struct UndoableNestedTreeJournalTests {

    @Test("Writes to a tree nested in a stored struct give the steps comparing gives")
    func journalsNestedTree() throws {
        let start = Desk(label: "desk", shelf: DeskShelf(cards: TreeArray((0..<200).map { ShapedCard(id: $0, title: "card \($0)") })))
        var (journaled, compared) = (UndoableState(start), UndoableState(start))
        let actions: [Desk.Action] = [
            .rename(at: 3, "three"), .select(5), .rename(at: 4, "four"), .insert(id: 900, at: 2),
            .renameAndSelect(at: 6, nil), .remove(at: 1), .relabel("bench"), .rename(at: 8, "eight"),
            .move(from: 10, to: 150),
        ]
        var journaledSteps = 0
        for action in actions {
            let before = journaled.engine.journaledStepCount
            _ = Desk.journaling.reduce(into: &journaled, action: .action(action))
            _ = Desk.comparing.reduce(into: &compared, action: .action(action))
            journaledSteps += journaled.engine.journaledStepCount - before
            #expect(journaled.present == compared.present && journaled.steps() == compared.steps(), "after \(action)")
        }
        // Not lent, so compared: when nested trees are lent, this counts their writes instead
        // (`actions.filter(\.writesTree).count`).
        #expect(journaledSteps == 0)
        #expect(try archive(of: journaled) == archive(of: compared))
        for _ in actions {
            _ = Desk.journaling.reduce(into: &journaled, action: .undo)
            _ = Desk.comparing.reduce(into: &compared, action: .undo)
            #expect(journaled.present == compared.present && journaled.error == nil)
        }
        #expect(journaled.present == start)
        for _ in actions {
            _ = Desk.journaling.reduce(into: &journaled, action: .redo)
            _ = Desk.comparing.reduce(into: &compared, action: .redo)
            #expect(journaled.present == compared.present && journaled.error == nil)
        }
    }

    @Test("A lent tree sharing its storage with a nested one gives the steps comparing gives")
    func twoPlacesHoldingOneTreeAreCompared() throws {
        let cards = TreeArray((0..<50).map { ShapedCard(id: $0, title: "card \($0)") })
        var shelf = DeskShelf(cards: cards)
        shelf.selection = 1
        let start = Desk(label: "desk", shelf: shelf, spare: cards)
        var (journaled, compared) = (UndoableState(start), UndoableState(start))
        let before = journaled.engine.journaledStepCount
        for action: Desk.Action in [.rename(at: 3, "three"), .renameSpare(at: 4, "four"), .rename(at: 5, "five")] {
            _ = Desk.journaling.reduce(into: &journaled, action: .action(action))
            _ = Desk.comparing.reduce(into: &compared, action: .action(action))
            #expect(journaled.present == compared.present && journaled.steps() == compared.steps(), "after \(action)")
        }
        // Only `spare` is lent; its write, made while the nested tree holds the same storage,
        // must not reach the nested tree.
        #expect(journaled.engine.journaledStepCount - before == 1)
        #expect(journaled.present.shelf.cards[4].title == "card 4")
        #expect(try archive(of: journaled) == archive(of: compared))
        for _ in 0..<3 {
            _ = Desk.journaling.reduce(into: &journaled, action: .undo)
            #expect(journaled.error == nil)
        }
        #expect(journaled.present == start)
    }
}

/// A state whose tree sits inside a stored struct, after an optional (padding) in it.
struct Desk: Versionable, Equatable, Sendable, Codable {
    var label: String
    var shelf: DeskShelf
    var spare = TreeArray<ShapedCard>()

    func addReversions(into reverter: inout some Reverter<Desk>) {
        reverter.appendReversion(at: \.label)
        reverter.appendReversion(at: \.shelf)
        reverter.appendReversion(at: \.spare)
    }

    static var journaling: Undoable<Writer> { Writer().undoable(UndoableOptions(clock: TestClock())) }
    static var comparing: Undoable<Writer> {
        var options = UndoableOptions<Action>(clock: TestClock())
        options.policy.recordsWrites = false
        return Writer().undoable(options)
    }

    enum Action: Sendable, Equatable {
        case rename(at: Int, String)
        case renameSpare(at: Int, String)
        case insert(id: Int, at: Int)
        case remove(at: Int)
        case move(from: Int, to: Int)
        case select(Int?)
        case relabel(String)
        case renameAndSelect(at: Int, Int?)

        var writesTree: Bool {
            switch self {
            case .select, .relabel: false
            default: true
            }
        }
    }

    struct Writer: Reducer {
        func reduce(into state: inout Desk, action: Action) -> Effect<Action> {
            switch action {
            case let .rename(at, title): state.shelf.cards[at].title = title
            case let .renameSpare(at, title): state.spare[at].title = title
            case let .insert(id, at): state.shelf.cards.insert(ShapedCard(id: id, title: "new"), at: at)
            case let .remove(at): state.shelf.cards.remove(at: at)
            case let .move(from, to): state.shelf.cards.insert(state.shelf.cards.remove(at: from), at: to)
            case let .select(selection): state.shelf.selection = selection
            case let .relabel(label): state.label = label
            case let .renameAndSelect(at, selection):
                state.shelf.cards[at].title += "!"
                state.shelf.selection = selection
            }
            return .none
        }
    }
}

/// The struct of a ``Desk`` that holds its tree.
struct DeskShelf: Versionable, Equatable, Sendable, Codable {
    var selection: Int?
    var cards: TreeArray<ShapedCard>

    func addReversions(into reverter: inout some Reverter<DeskShelf>) {
        reverter.appendReversion(at: \.selection)
        reverter.appendReversion(at: \.cards)
    }
}
