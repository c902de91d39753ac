import Revertible
import Testing
import UndoableReducer

/// Issue 24 under ThreadSanitizer: a store whose base state is written without steps by one
/// task (an effect's answers, a sync) while others record steps by two authors and take them
/// back with `undo(by:)`.
@Suite("Other writers concurrency: a store")
struct StoreOtherWritersConcurrencyTests {

    struct Pair: Reducer {
        struct State: Versionable, Equatable, Sendable {
            var counts = [0, 0]
            var synced = 0

            func addReversions(into reverter: inout some Reverter<State>) {
                reverter.appendReversion(at: \.counts)
                reverter.appendReversion(at: \.synced)
            }
        }

        enum Action: Sendable {
            case increment(author: Int)
            case synced(Int)
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .increment(author): state.counts[author] += 1
            case let .synced(value): state.synced = value
            }
            return .none
        }
    }

    @Test("Unrecorded writes racing two authors' steps and undos are never taken back")
    func unrecordedWritesWhileRecording() async {
        let reducer = Pair().undoable(UndoableOptions(
            recording: { if case .synced = $0 { false } else { true } },
            author: { if case let .increment(author) = $0 { HistoryAuthor(author) } else { nil } }
        ))
        let store = Store(initialState: UndoableState(Pair.State()), reducer: reducer)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for value in 1...300 { store.send(.action(.synced(value))) }
            }
            for author in 0..<2 {
                group.addTask {
                    for step in 0..<150 {
                        store.send(.action(.increment(author: author)))
                        if step % 3 == 0 { store.send(.undo(by: HistoryAuthor(author))) }
                        if step % 7 == 0 { store.send(.redo(by: HistoryAuthor(author))) }
                        if step % 13 == 0 { store.send(.undo) }
                        if step % 17 == 0 { store.send(.redo) }
                    }
                }
            }
        }
        #expect(store.state.present.synced == 300)
        #expect(store.state.tree().allSatisfy { $0.author == 0 || $0.author == 1 })
        // Each author's undo ends, and leaves the synced value and the other's count alone.
        for author in 0..<2 {
            let other = store.state.present.counts[1 - author]
            for _ in 0...store.state.tree().count {
                let before = store.state.currentVersionID
                store.send(.undo(by: HistoryAuthor(author)))
                #expect(store.state.error == nil)
                if store.state.currentVersionID == before { break }
            }
            #expect(store.state.present.synced == 300 && store.state.present.counts[1 - author] == other)
        }
    }
}
