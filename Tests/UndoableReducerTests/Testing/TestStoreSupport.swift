import Revertible
import UndoableReducer
@testable import UndoableReducerTesting

/// A test store whose failures are collected instead of failing the test, to check that it
/// fails when it should, with the exact message.
func recordingFailures<R: Reducer>(
    _ initialState: R.State,
    _ reducer: R
) -> (store: TestStore<R.State, R.Action>, failures: Shared<[String]>) where R.State: Equatable & Sendable {
    let failures = Shared<[String]>([])
    let store = TestStore(
        root: initialState,
        reducer: reducer,
        view: { $0 },
        at: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column),
        reportIssue: { message, _ in failures.withLock { $0.append(message) } }
    )
    return (store, failures)
}

/// The same for an undoable reducer, asserted through `UndoableTestState`.
func recordingFailures<Base: Versionable & Sendable & Equatable, R: Reducer<UndoableState<Base>, Action>, Action>(
    undoable initialState: UndoableState<Base>,
    _ reducer: R
) -> (store: TestStore<UndoableTestState<Base>, Action>, failures: Shared<[String]>) {
    let failures = Shared<[String]>([])
    let store = TestStore(
        root: initialState,
        reducer: reducer,
        view: { UndoableTestState($0) },
        at: CallSite(fileID: #fileID, filePath: #filePath, line: #line, column: #column),
        reportIssue: { message, _ in failures.withLock { $0.append(message) } }
    )
    return (store, failures)
}
