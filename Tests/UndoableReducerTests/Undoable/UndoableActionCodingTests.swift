import Foundation
import Revertible
import Testing
import UndoableReducer

@Suite("Undoable actions: coding")
struct UndoableActionCodingTests {

    /// Every kind of action, as a replay saves it.
    let actions: [UndoableAction<Tally.Action>] = [
        .action(.add(2)),
        .transaction([.increment, .add(3)]),
        .undo,
        .redo(to: .steps(2)),
        .undo(to: "saved"),
        .undo(by: "ana"),
        .redo(by: 3),
        .move(to: .earlier(3)),
        .move(to: .version(HistoryVersion(4))),
        .undoCurrentScope,
        .redoCurrentScope,
        .tag("saved"),
        .pushNewScope,
        .popCurrentScope,
        .undoAndPopCurrentScope,
        .removeAllVersions,
        .stopGrouping,
    ]

    /// The bytes replays saved before history commands became one enum: the same cases,
    /// each an object keyed by its name.
    static let saved = #"[{"action":{"_0":{"add":{"_0":2}}}},{"transaction":{"_0":[{"increment":{}},{"add":{"_0":3}}]}},{"undo":{"to":{"steps":1}}},{"redo":{"to":{"steps":2}}},{"undo":{"to":{"tag":"saved"}}},{"undoByAuthor":{"_0":"ana"}},{"redoByAuthor":{"_0":3}},{"move":{"to":{"earlier":{"_0":3}}}},{"move":{"to":{"version":{"_0":{"rawValue":4}}}}},{"undoCurrentScope":{}},{"redoCurrentScope":{}},{"tag":{"_0":"saved"}},{"pushNewScope":{}},{"popCurrentScope":{}},{"undoAndPopCurrentScope":{}},{"removeAllVersions":{}},{"stopGrouping":{}}]"#

    @Test("Actions are saved as before, and saved actions load")
    func savedFormIsKept() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(actions)
        #expect(String(decoding: encoded, as: UTF8.self) == Self.saved)
        let decoded = try JSONDecoder().decode([UndoableAction<Tally.Action>].self, from: Data(Self.saved.utf8))
        #expect(decoded == actions)
    }
}

@Suite("Undoable actions: destinations")
struct UndoableDestinationTests {

    @Test("The reducer undoes to any destination on undo's way, and refuses one off it")
    func undoToDestination() {
        let reducer = Tally().undoable()
        var state = UndoableState(Tally.State())
        for action in [UndoableAction<Tally.Action>.action(.add(1)), .action(.add(2)), .action(.add(3))] {
            _ = reducer.reduce(into: &state, action: action)
        }
        _ = reducer.reduce(into: &state, action: .undo(to: .oldest))
        #expect(state.undoCount == 0 && state.redoCount == 3 && state.error == nil)
        _ = reducer.reduce(into: &state, action: .undo(to: .newest))
        #expect(state.error == HistoryError.destinationOutOfReach(.newest) && state.redoCount == 3)
        _ = reducer.reduce(into: &state, action: .move(to: .steps(2)))
        #expect(state.error == HistoryError.unsupportedDestination(.steps(2)) && state.redoCount == 3)
        _ = reducer.reduce(into: &state, action: .redo(to: .newest))
        #expect(state.undoCount == 3 && state.error == nil)
    }
}
