import Foundation
import Revertible
import Testing
import UndoableReducer

/// The ledger of issue 24: accounts, deposits, and archiving, which the app does not record.
struct Ledger: Reducer {
    struct Account: Identifiable, Versionable, Codable {
        let id: Int
        var name: String
        var balance = 0
        var isArchived = false

        func addReversions(into reverter: inout some Reverter<Account>) {
            reverter.appendReversion(at: \.name)
            reverter.appendReversion(at: \.balance)
            reverter.appendReversion(at: \.isArchived)
        }
    }

    struct State: Versionable, Codable {
        var accounts: [Account] = []

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.accounts)
        }
    }

    enum Action: Sendable, Equatable, Codable {
        case add(id: Int, name: String)
        case deposit(id: Int, amount: Int)
        case archive(id: Int)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case let .add(id, name):
            state.accounts.append(Account(id: id, name: name))
        case let .deposit(id, amount):
            if let index = state.accounts.firstIndex(where: { $0.id == id }) { state.accounts[index].balance += amount }
        case let .archive(id):
            if let index = state.accounts.firstIndex(where: { $0.id == id }) { state.accounts[index].isArchived = true }
        }
        return .none
    }

    /// Archiving is bookkeeping the user does not undo.
    static let options = UndoableOptions<Action>(recording: { if case .archive = $0 { false } else { true } })
}

@Suite("Other writers: the reducer")
struct UndoableOtherWritersTests {

    func ledger() -> (Undoable<Ledger>, UndoableState<Ledger.State>) {
        let reducer = Ledger().undoable(Ledger.options)
        let state = reduce(reducer, UndoableState(Ledger.State()), [
            .action(.add(id: 1, name: "A")), .action(.add(id: 2, name: "B")),
            .action(.deposit(id: 1, amount: 50)), .action(.archive(id: 2)),
        ])
        return (reducer, state)
    }

    /// Failed on main: the second undo refused ("a different version at \State.accounts"),
    /// and every undo after it, forever.
    @Test("The ledger: an unrecorded write never jams undo, and stays")
    func ledgerNeverJams() throws {
        var (reducer, state) = ledger()
        state = reduce(reducer, state, [.undo])
        #expect(state.error == nil && state.present.accounts.map(\.balance) == [50 - 50, 0] && state.lastConflicts.isEmpty)
        state = reduce(reducer, state, [.undo])
        #expect(state.error == nil && state.undoCount == 1)
        // Exactly one conflict: account B, which the unrecorded write archived, stays.
        #expect(state.lastConflicts.map(\.location) == ["\\State.accounts[id: 2]"])
        state = reduce(reducer, state, [.undo])
        #expect(state.error == nil && !state.hasUndo && state.lastConflicts.isEmpty)
        // "Add A" is undone all the way; the unrecorded archiving is never taken back.
        #expect(state.present.accounts.map(\.id) == [2])
        #expect(state.present.accounts.first { $0.id == 2 }?.isArchived == true)
        // The same after a reload: the archive keeps what happened, and redo goes on from it.
        let reloaded = try #require(try? UndoableState(present: state.present, archive: state.archive))
        #expect(reloaded.redoCount == state.redoCount)
        // Redo never jams either, and brings back exactly the recorded deposit.
        state = reduce(reducer, state, [.redo, .redo, .redo])
        #expect(state.error == nil && !state.hasRedo)
        #expect(state.present.accounts.map(\.balance) == [50, 0] && state.present.accounts[1].isArchived)
    }

    @Test("Under the refuse policy a conflicting undo changes nothing and says why")
    func refusePolicy() {
        let reducer = Ledger().undoable(UndoableOptions(
            recording: { if case .archive = $0 { false } else { true } },
            conflictPolicy: .refuse
        ))
        var state = reduce(reducer, ledger().1, [.undo, .undo])
        if case let .conflict(conflicts)? = state.error?.reversionError {
            #expect(!conflicts.isEmpty && conflicts.allSatisfy { $0.location.hasPrefix("\\State.accounts") })
        } else {
            Issue.record("expected a conflict, got \(String(describing: state.error))")
        }
        #expect(state.undoCount == 2 && state.present.accounts.count == 2 && !state.lastConflicts.isEmpty)
        // A successful command clears the error.
        state = reduce(reducer, state, [.redo])
        #expect(state.error == nil && state.present.accounts[0].balance == 50)
    }

    @Test("absorb makes a change from elsewhere the present without a step; undo leaves it")
    func absorbKeepsForeignChange() {
        let reducer = TodoList().undoable()
        var state = reduce(reducer, UndoableState(TodoList.State()), [.action(.add(id: 1, title: "milk")), .action(.type("dr"))])
        var synced = state.present
        synced.lastSeen = 7
        synced.todos[0].title = "oat milk"
        state.absorb(synced)
        #expect(state.undoCount == 2 && state.present.lastSeen == 7)
        state = reduce(reducer, state, [.undo])
        #expect(state.present.draft == "" && state.present.lastSeen == 7 && state.present.todos[0].title == "oat milk")
        // The next recorded step holds only its own change.
        state = reduce(reducer, state, [.action(.toggle(id: 1)), .undo])
        #expect(state.present.lastSeen == 7 && state.present.todos[0].title == "oat milk" && !state.present.todos[0].isDone)
    }

    @Test("An effect's unrecorded response is absorbed: undo skips it")
    func effectWritesAreAbsorbed() async {
        let reducer = TodoList().undoable(UndoableOptions(recording: { if case .loaded = $0 { false } else { true } }))
        let store = Store(initialState: UndoableState(TodoList.State()), reducer: reducer)
        store.send(.action(.add(id: 1, title: "milk")))
        await store.send(.action(.load)).finish()
        // `.load` changed nothing itself: the one step is the add.
        #expect(store.state.present.todos.map(\.title) == ["milk", "from", "effect"] && store.state.undoCount == 1)
        store.send(.undo)
        #expect(store.state.error == nil && !store.state.hasUndo)
        // What the effect wrote stays; whether "milk" goes too depends on how finely the
        // engine tells apart elements of a list it shares with the effect's change.
        let titles = store.state.present.todos.map(\.title)
        #expect(titles.suffix(2) == ["from", "effect"])
    }

    @Test("Two authors: each undoes only their own steps, the other's stay")
    func twoAuthors() {
        let reducer = Ledger().undoable(UndoableOptions(author: { action in
            if case let .deposit(id, _) = action { HistoryAuthor(id == 1 ? "ana" : "ben") } else { "admin" }
        }))
        var state = reduce(reducer, UndoableState(Ledger.State()), [
            .action(.add(id: 1, name: "A")), .action(.add(id: 2, name: "B")),
            .action(.deposit(id: 1, amount: 10)), .action(.deposit(id: 2, amount: 20)), .action(.deposit(id: 1, amount: 30)),
        ])
        #expect(state.steps().undo.map(\.author) == ["admin", "admin", "ana", "ben", "ana"])
        state = reduce(reducer, state, [.undo(by: "ana")])
        #expect(state.present.accounts.map(\.balance) == [10, 20])
        state = reduce(reducer, state, [.undo(by: "ana")])
        #expect(state.present.accounts.map(\.balance) == [0, 20])
        state = reduce(reducer, state, [.undo(by: "ana")])
        #expect(state.present.accounts.map(\.balance) == [0, 20] && state.error == nil)
        state = reduce(reducer, state, [.redo(by: "ana")])
        #expect(state.present.accounts.map(\.balance) == [10, 20])
        state = reduce(reducer, state, [.undo(by: "ben")])
        #expect(state.present.accounts.map(\.balance) == [10, 0])
        // The per-author moves are steps by their authors, labelled like the step they took back.
        #expect(state.steps().undo.suffix(4).map(\.author) == ["ana", "ana", "ana", "ben"])
        // A new ordinary step by ana ends ana's redo.
        state = reduce(reducer, state, [.action(.deposit(id: 1, amount: 1)), .redo(by: "ana")])
        #expect(state.present.accounts.map(\.balance) == [11, 0])
    }

    @Test("A transaction's step is by its first action with an author; groups never join authors")
    func transactionsAndGroups() {
        let reducer = Tally().undoable(UndoableOptions(
            groupingBy: { _ in "typing" },
            author: { action in if case let .add(amount) = action { HistoryAuthor(amount) } else { nil } }
        ))
        let state = reduce(reducer, UndoableState(Tally.State()), [
            .action(.add(1)), .action(.add(1)), .action(.add(2)), .transaction([.increment, .add(3), .add(4)]),
        ])
        #expect(state.steps().undo.map(\.author) == [1, 2, 3])
        #expect(state.steps().undo.map(\.changeCount) == [2, 1, 3])
    }

    @Test("Per-author actions are coded, and a history with per-author moves replays")
    func codingAndReplay() throws {
        let actions: [UndoableAction<Ledger.Action>] = [.undo(by: "ana"), .redo(by: 3), .undo]
        let decoded = try JSONDecoder().decode([UndoableAction<Ledger.Action>].self, from: JSONEncoder().encode(actions))
        #expect(decoded == actions)
        let reducer = Ledger().undoable(UndoableOptions(author: { _ in "ana" }))
        let state = reduce(reducer, UndoableState(Ledger.State()), [
            .action(.add(id: 1, name: "A")), .action(.deposit(id: 1, amount: 5)), .undo(by: "ana"),
        ])
        let replay = try state.replay(of: Ledger.Action.self)
        let restored = try reducer.restore(replay)
        #expect(restored == state)
        #expect(reduce(reducer, restored, [.redo(by: "ana")]).present.accounts[0].balance == 5)
    }

    @Test("An app's own actions can stand for per-author undo")
    func commandsReachAuthorMoves() {
        enum Action: Sendable { case add(Int), undoMine }
        let reducer = Reduce<Tally.State, Action> { state, action in
            if case let .add(amount) = action { state.count += amount }
            return .none
        }.undoable(commands: { if case .undoMine = $0 { .undo(by: "me") } else { nil } }, UndoableOptions(author: { _ in "me" }))
        let state = reduce(reducer, UndoableState(Tally.State()), [.add(1), .add(2), .undoMine])
        #expect(state.present.count == 1 && state.undoCount == 3)
    }
}
