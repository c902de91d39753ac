import Revertible
import Testing
import UndoableReducer
import UndoableReducerTesting

/// Issue 38: a `TestStore` test of the default policy states what an undo skipped.
@Suite("TestStore: the conflicts an undo skipped are stated")
struct UndoableTestStoreConflictTests {

    /// The ledger of issue 24 with its unrecorded archiving of account B: undoing "add B"
    /// finds B changed by that write and, under the default `.skip`, leaves it.
    func archivedLedger() -> UndoableState<Ledger.State> {
        reduce(Ledger().undoable(Ledger.options), UndoableState(Ledger.State()), [
            .action(.add(id: 1, name: "A")), .action(.add(id: 2, name: "B")), .action(.archive(id: 2)),
        ])
    }

    static let skipped = ReversionConflict(
        location: "\\State.accounts[id: 2]",
        expected: "Account(id: 2, name: \"B\", balance: 0, isArchived: false)",
        found: "Account(id: 2, name: \"B\", balance: 0, isArchived: true)"
    )

    @Test func anUndoStatesTheConflictsItSkipped() async {
        let store = TestStore(initialState: archivedLedger(), reducer: Ledger().undoable(Ledger.options))
        await store.send(.undo) {
            $0.undo = [.init()]
            $0.redo = [.init()]
            $0.lastConflicts = [Self.skipped]
        }
        // The next command finds none: the test says so, as it says an error is gone.
        await store.send(.undo) {
            $0.present.accounts.removeAll { $0.id == 1 }
            $0.undo = []
            $0.redo = [.init(), .init()]
            $0.lastConflicts = []
        }
    }

    @Test func unstatedConflictsFailWithADiff() async {
        let (store, failures) = recordingFailures(undoable: archivedLedger(), Ledger().undoable(Ledger.options))
        await store.send(.undo) {
            $0.undo = [.init()]
            $0.redo = [.init()]
        }
        let message = failures.value.first
        #expect(message != nil, "unstated conflicts must be reported")
        #expect(message?.contains("+   lastConflicts: [") == true)
        #expect(message?.contains("location: \"\\\\State.accounts[id: 2]\"") == true)
    }
}
