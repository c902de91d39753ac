import Revertible
import Testing
import UndoableReducer
import UndoableReducerTesting

/// The public failure reporter, and the history details an undoable test can state (issue 22),
/// in Swift Testing; `TestStoreXCTests` does the same in XCTest.
@Suite("TestStore: failure reporters and history details")
struct TestStoreFailureReporterTests {

    @Test("A reporter of your own receives each failure with the assertion's place")
    func customReporter() async {
        let failures = Shared<[TestFailure]>([])
        let store = TestStore(
            initialState: Loader.State(),
            reducer: Loader(clock: TestClock()),
            reportingFailuresTo: TestFailureReporter { failure in failures.withLock { $0.append(failure) } }
        )
        let line = #line + 1
        await store.send(.load) { $0.isLoading = false }
        await store.receive(.loaded(["milk", "eggs"])) {
            $0.isLoading = false
            $0.items = ["milk", "eggs"]
        }
        await store.finish()
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.message.hasPrefix("State after sending .load does not match the expectation") == true)
        #expect(reported.first?.line == line && reported.first?.fileID == #fileID)
    }

    @Test("The Swift Testing reporter records an issue")
    func swiftTestingReporter() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()), reportingFailuresTo: .swiftTesting)
        await withKnownIssue {
            await store.send(.ping) { $0.pongs = 5 }
        }
        store.exhaustivity = .off
    }

    @Test("With every detail, a test states versions, parents, times, branches and the present's version")
    func everyDetail() async {
        let clock = TestClock()
        let reducer = TodoList().undoable(UndoableOptions(clock: clock, label: TodoList.label))
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: reducer, stating: .all)
        typealias Step = UndoableTestState<TodoList.State>.Step
        clock.advance(by: .seconds(10))
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo = [Step("Add “milk”", version: HistoryVersion(1), parent: HistoryVersion(0), time: .seconds(10))]
            $0.currentVersionID = HistoryVersion(1)
        }
        clock.advance(by: .seconds(5))
        await store.send(.action(.add(id: 2, title: "eggs"))) {
            $0.present.todos.append(.init(id: 2, title: "eggs"))
            $0.undo.append(Step("Add “eggs”", version: HistoryVersion(2), parent: HistoryVersion(1), time: .seconds(15)))
            $0.currentVersionID = HistoryVersion(2)
        }
        await store.send(.undo) {
            $0.present.todos.removeLast()
            $0.redo = [$0.undo.removeLast()]
            $0.currentVersionID = HistoryVersion(1)
        }
        clock.advance(by: .seconds(5))
        await store.send(.action(.add(id: 3, title: "oats"))) {
            $0.present.todos.append(.init(id: 3, title: "oats"))
            $0.branches = $0.redo
            $0.redo = []
            $0.undo.append(Step("Add “oats”", version: HistoryVersion(3), parent: HistoryVersion(1), time: .seconds(20)))
            $0.currentVersionID = HistoryVersion(3)
        }
        await store.send(.move(to: .newest))
        await store.send(.move(to: .version(HistoryVersion(2)))) {
            $0.present.todos[1] = .init(id: 2, title: "eggs")
            let oats = $0.undo[1]
            $0.undo[1] = $0.branches[0]
            $0.branches = [oats]
            $0.currentVersionID = HistoryVersion(2)
        }
    }

    @Test("A detail asked for must be stated: a wrong version or time fails")
    func detailsAreChecked() async {
        let failures = Shared<[TestFailure]>([])
        let clock = TestClock()
        let store = TestStore(
            initialState: UndoableState(TodoList.State()),
            reducer: TodoList().undoable(UndoableOptions(clock: clock, label: TodoList.label)),
            stating: [.versions, .times],
            reportingFailuresTo: TestFailureReporter { failure in failures.withLock { $0.append(failure) } }
        )
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo = ["Add “milk”"]
        }
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.message.contains("version") == true)
        #expect(reported.first?.message.contains("time") == true)
    }

    @Test("Without details, versions, times and branches are nil or empty")
    func noDetails() async {
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: TodoList().undoable(UndoableOptions(label: TodoList.label)))
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo = ["Add “milk”"]
        }
        await store.send(.undo) {
            $0.present.todos = []
            $0.redo = $0.undo
            $0.undo = []
        }
        await store.send(.action(.add(id: 2, title: "eggs"))) {
            $0.present.todos = [.init(id: 2, title: "eggs")]
            $0.redo = []
            $0.undo = ["Add “eggs”"]
        }
        #expect(store.state.currentVersionID == nil && store.state.currentScope.branches.isEmpty)
        #expect(store.state.undo.allSatisfy { $0.version == nil && $0.parent == nil && $0.time == nil })
    }
}
