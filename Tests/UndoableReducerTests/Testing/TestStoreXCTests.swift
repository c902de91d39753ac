import Revertible
import UndoableReducer
import UndoableReducerTesting
import XCTest

/// The test store works in XCTest too, where failures are `XCTFail`s.
final class TestStoreXCTests: XCTestCase {
    func testAFeatureWithAnEffect() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()))
        await store.send(.load) { $0.isLoading = true }
        await store.receive(.loaded(["milk", "eggs"])) {
            $0.isLoading = false
            $0.items = ["milk", "eggs"]
        }
        await store.finish()
    }

    /// XCTest on Linux has no `XCTExpectFailure`: a reporter of one's own is how a test checks
    /// that the store fails where it should.
    func testAReporterOfYourOwnReceivesEachFailure() async {
        let failures = Shared<[TestFailure]>([])
        let store = TestStore(
            initialState: Loader.State(),
            reducer: Loader(clock: TestClock()),
            reportingFailuresTo: TestFailureReporter { failure in failures.withLock { $0.append(failure) } }
        )
        let line = #line + 1
        await store.send(.ping) { $0.pongs = 7 }
        await store.receive(.pong) { $0.pongs = 1 }
        let reported = failures.withLock { $0 }
        XCTAssertEqual(reported.count, 1)
        XCTAssertEqual(reported.first?.line, line)
        XCTAssertEqual(reported.first?.fileID, #fileID)
        XCTAssertTrue(reported.first?.message.hasPrefix("State after sending .ping does not match the expectation") == true)
    }

    /// Failures caught by `recordFailure` instead of failing this test, while set.
    private var caught: [String]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if caught != nil {
            caught!.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func testTheXCTestReporterFailsTheTestCase() async {
        let store = TestStore(initialState: Loader.State(), reducer: Loader(clock: TestClock()), reportingFailuresTo: .xcTest)
        caught = []
        await store.send(.ping) { $0.pongs = 7 }
        let reported = caught ?? []
        caught = nil
        XCTAssertEqual(reported.count, 1)
        XCTAssertTrue(reported.first?.contains("does not match the expectation") == true, "\(reported)")
        await store.receive(.pong) { $0.pongs = 1 }
    }

    func testAnUndoableStateStatesVersionsTimesAndBranches() async {
        let clock = TestClock()
        let reducer = TodoList().undoable(UndoableOptions(clock: clock, label: TodoList.label))
        let store = TestStore(initialState: UndoableState(TodoList.State()), reducer: reducer, stating: .all)
        typealias Step = UndoableTestState<TodoList.State>.Step
        clock.advance(by: .seconds(1))
        await store.send(.action(.add(id: 1, title: "milk"))) {
            $0.present.todos = [.init(id: 1, title: "milk")]
            $0.undo = [Step("Add “milk”", version: HistoryVersion(1), parent: HistoryVersion(0), time: .seconds(1))]
            $0.currentVersionID = HistoryVersion(1)
        }
        await store.send(.undo) {
            $0.present.todos = []
            $0.redo = $0.undo
            $0.undo = []
            $0.currentVersionID = HistoryVersion(0)
        }
        clock.advance(by: .seconds(1))
        await store.send(.action(.add(id: 2, title: "eggs"))) {
            $0.present.todos = [.init(id: 2, title: "eggs")]
            $0.branches = $0.redo
            $0.redo = []
            $0.undo = [Step("Add “eggs”", version: HistoryVersion(2), parent: HistoryVersion(0), time: .seconds(2))]
            $0.currentVersionID = HistoryVersion(2)
        }
        XCTAssertEqual(store.state.branches.map(\.version), [HistoryVersion(1)])
        await store.send(.move(to: .oldest)) {
            $0.present.todos = []
            $0.redo = $0.undo
            $0.undo = []
            $0.currentVersionID = HistoryVersion(0)
        }
    }
}
