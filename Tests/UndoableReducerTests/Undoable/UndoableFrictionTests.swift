import Revertible
import Testing
import TestSupport
import UndoableReducer

/// Issue 38, what a new user misses: the per-person Undo button on `UndoableState`, and
/// `.dropNextUndo` beside `.undo`.
@Suite("Undoable: a new user's friction")
struct UndoableFrictionTests {

    /// Deposits to account 1 are ana's, to account 2 ben's; everything else the admin's.
    let reducer = Ledger().undoable(UndoableOptions(author: { action in
        if case let .deposit(id, _) = action { HistoryAuthor(id == 1 ? "ana" : "ben") } else { "admin" }
    }))

    func accounts() -> UndoableState<Ledger.State> {
        reduce(reducer, UndoableState(Ledger.State()), [.action(.add(id: 1, name: "A")), .action(.add(id: 2, name: "B"))])
    }

    @Test("hasUndo(by:) and nextUndo(by:) on the state agree with .undo(by:)")
    func perAuthorButton() {
        var state = reduce(reducer, accounts(), [.action(.deposit(id: 1, amount: 10)), .action(.deposit(id: 2, amount: 20))])
        #expect(state.hasUndo(by: "ana") && state.hasUndo(by: "ben") && !state.hasUndo(by: "cy"))
        #expect(state.nextUndo(by: "ana")?.author == "ana")
        #expect(!state.hasRedo(by: "ana"))
        state = reduce(reducer, state, [.undo(by: "ana")])
        #expect(state.present.accounts.map(\.balance) == [0, 20])
        #expect(!state.hasUndo(by: "ana") && state.hasRedo(by: "ana"))
        #expect(state.nextRedo(by: "ana")?.author == "ana")
    }

    @Test("A step another writer overwrote has nothing left to undo under skip, but does under overwrite")
    func supersededStep() {
        var state = reduce(reducer, accounts(), [.action(.deposit(id: 1, amount: 10))])
        var synced = state.present
        synced.accounts[0].balance = 99
        state.absorb(synced)
        #expect(!state.hasUndo(by: "ana"))
        #expect(state.hasUndo(by: "ana", onConflict: .overwrite))
        let before = state.currentVersionID
        state = reduce(reducer, state, [.undo(by: "ana")])
        #expect(state.currentVersionID == before && state.present.accounts[0].balance == 99)
    }

    @Test("For random ledgers of two authors and another writer, the button agrees with the move", arguments: 1...20)
    func randomLedgers(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var state = accounts()
        for operation in 0..<100 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1:
                state = reduce(reducer, state, [.action(.deposit(id: Int.random(in: 1...2, using: &random), amount: Int.random(in: 1...3, using: &random)))])
            case 2:
                // Plain undo may have taken the accounts back out.
                var synced = state.present
                guard !synced.accounts.isEmpty else { continue }
                synced.accounts[Int.random(in: 0..<synced.accounts.count, using: &random)].balance = Int.random(in: 0...3, using: &random)
                state.absorb(synced)
            case 3:
                state = reduce(reducer, state, [Bool.random(using: &random) ? .undo : .redo])
            default:
                let author: HistoryAuthor = Bool.random(using: &random) ? "ana" : "ben"
                let isUndo = Bool.random(using: &random)
                let predicted = isUndo ? state.hasUndo(by: author) : state.hasRedo(by: author)
                let before = state.currentVersionID
                state = reduce(reducer, state, [isUndo ? .undo(by: author) : .redo(by: author)])
                #expect((state.currentVersionID != before) == predicted, "seed \(seed), operation \(operation)")
            }
        }
    }

    @Test(".dropNextUndo drops the step a refusal left, keeping the present")
    func dropNextUndoShorthand() {
        let refusing = Ledger().undoable(UndoableOptions(recording: { if case .archive = $0 { false } else { true } }, conflictPolicy: .refuse))
        var state = reduce(refusing, UndoableState(Ledger.State()), [
            .action(.add(id: 1, name: "A")), .action(.add(id: 2, name: "B")), .action(.archive(id: 2)), .undo,
        ])
        #expect(state.error?.reversionError != nil && state.undoCount == 2)
        state = reduce(refusing, state, [.dropNextUndo])
        #expect(state.undoCount == 1 && state.present.accounts.map(\.id) == [1, 2])
        #expect(UndoableAction<Ledger.Action>.dropNextUndo == .history(.dropNextUndo))
        state = reduce(refusing, state, [.undo])
        #expect(state.error == nil && state.present.accounts.map(\.id) == [2])
    }
}
