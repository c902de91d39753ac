import Revertible
import UndoableReducer

/// A store for reducer unit tests that asserts, exhaustively by default, how each action
/// changes the state, which actions effects send back, and that no effect outlives the test.
///
/// ```swift
/// @Test func loading() async {
///     let store = TestStore(initialState: Feature.State(), reducer: Feature())
///     await store.send(.refreshTapped) { $0.isLoading = true }
///     await store.receive(.loaded(["milk"])) {
///         $0.isLoading = false
///         $0.items = ["milk"]
///     }
/// }
/// ```
///
/// - ``send(_:assert:fileID:filePath:line:column:isolation:)`` reduces an action; the closure
///   states how the state changed, starting from the state before the action. If the state
///   after it differs, the test fails with a diff of the two (`-` expected, `+` actual).
/// - ``receive(_:assert:fileID:filePath:line:column:isolation:)`` takes the next action an
///   effect sent (a synchronous `.send` effect or a `.run` effect), waiting for it if an
///   effect is still running, and asserts it and its state change the same way.
/// - ``finish(timeout:fileID:filePath:line:column:isolation:)``, or releasing the store at
///   the end of the test, fails the test for each action received but not asserted and each
///   effect still running.
///
/// Failures are Swift Testing issues inside a Swift Testing test, and `XCTFail` otherwise;
/// pass `reportingFailuresTo:` to choose (``TestFailureReporter/xcTest``,
/// ``TestFailureReporter/swiftTesting``) or to collect them yourself, say to test that a
/// store fails where it should, in XCTest too.
///
/// ## Waiting without sleeping
///
/// The store knows which `.run` effects are running: each is counted when the reducer
/// returns it and uncounted when it returns. So ``receive(_:assert:fileID:filePath:line:column:isolation:)``
/// returns as soon as the action arrives, and fails at once when no effect is left that
/// could send one. Only when an effect is still running and sends nothing does it wait,
/// up to ``timeout`` of real time, before failing: a passing test never waits for a clock.
/// Drive time-based effects with `TestClock`, and take their deadlines in the reducer
/// (`clock.now.advanced(by:)`), so advancing the clock right after `send` cannot come
/// before the effect starts sleeping.
///
/// ## Undoable reducers
///
/// A reducer whose state is an `UndoableState` is tested through ``UndoableTestState``: the
/// closure edits `present` and states the history (`$0.undo`, `$0.redo`, `$0.scopes`,
/// `$0.error`), and ``assertUndoRoundTrip(fileID:filePath:line:column:)`` checks that undoing
/// every step returns to the initial state and redoing them to the current one.
///
/// The store is `Sendable`: use it from `@MainActor` tests and plain async tests alike; its
/// closures run on the caller's actor.
public final class TestStore<State: Equatable & Sendable, Action: Sendable>: Sendable {

    private struct Settings {
        /// The state after the last asserted action.
        var state: State
        var exhaustivity: Exhaustivity = .on
        var timeout: Duration = .seconds(1)
        var nextSendID: UInt64 = 0
        var tasks: [StoreTask] = []
    }

    private let log: TestStoreLog<State, Action>
    private let settings: Locked<Settings>
    /// Sends to the inner store, which it keeps alive.
    private let sendToStore: @Sendable (TestAction<Action>) -> StoreTask
    /// The inner store's state as the reducer sees it, and the state the test store began with.
    let currentRoot: @Sendable () -> any Sendable
    let initialRoot: any Sendable
    let reportIssue: @Sendable (String, CallSite) -> Void
    private let creation: CallSite

    /// A test store of `reducer`, starting in `initialState`.
    ///
    /// A reducer whose state is an `UndoableState` gets the undoable initializer instead, so
    /// the test can state the history.
    ///
    /// - Parameters:
    ///   - initialState: The state before the first action.
    ///   - reducer: The reducer under test.
    ///   - reporter: Where failures go: the running test framework by default.
    ///   - fileID: The file where a failure at the end of the test (an action not received,
    ///     an effect still running) is reported: the caller's, by default.
    ///   - filePath: The path of that file, which XCTest reports.
    ///   - line: The line of that report: the caller's, by default.
    ///   - column: The column of that report: the caller's, by default.
    @_disfavoredOverload // the undoable initializer wins when both apply
    public convenience init<R: Reducer<State, Action>>(
        initialState: State,
        reducer: R,
        reportingFailuresTo reporter: TestFailureReporter = .automatic,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            root: initialState,
            reducer: reducer,
            view: { $0 },
            at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column),
            reportIssue: { message, site in reporter(TestFailure(message, at: site)) }
        )
    }

    init<Root: Sendable>(
        root: Root,
        reducer: some Reducer<Root, Action>,
        view: @escaping @Sendable (Root) -> State,
        at site: CallSite,
        reportIssue: @escaping @Sendable (String, CallSite) -> Void
    ) {
        let log = TestStoreLog<State, Action>()
        let store = Store(initialState: root, reducer: RecordingReducer(base: reducer, view: view, log: log))
        self.log = log
        settings = Locked(Settings(state: view(root)))
        sendToStore = { store.send($0) }
        currentRoot = { store.state }
        initialRoot = root
        self.reportIssue = reportIssue
        creation = site
    }

    deinit {
        let exhaustivity = settings.withLock { $0.exhaustivity }
        guard exhaustivity == .on else { return }
        // An effect whose last action was just received may still be returning.
        log.blockUntilEffectsFinish(timeout: timeout)
        checkForLeftovers(at: creation)
    }

    /// The state after the last action the test sent or received.
    public var state: State {
        settings.withLock { $0.state }
    }

    /// Whether every state change, received action and running effect must be asserted
    /// (``Exhaustivity/on``, the default), or only those the test states (``Exhaustivity/off``).
    public var exhaustivity: Exhaustivity {
        get { settings.withLock { $0.exhaustivity } }
        set { settings.withLock { $0.exhaustivity = newValue } }
    }

    /// How long, in real time, ``receive(_:assert:fileID:filePath:line:column:isolation:)``
    /// and ``finish(timeout:fileID:filePath:line:column:isolation:)`` wait for a running
    /// effect before failing; one second unless set. A passing test does not wait for it.
    public var timeout: Duration {
        get { settings.withLock { $0.timeout } }
        set { settings.withLock { $0.timeout = newValue } }
    }

    // MARK: - Sending

    // Every public entry point repeats the `fileID`/`filePath`/`line`/`column` parameters:
    // their defaults capture the caller's location only where they are written, so they
    // cannot move into a shared helper; each turns them into a `CallSite` at once.

    /// Sends `action` and asserts the state after it.
    ///
    /// - Parameters:
    ///   - action: The action to reduce.
    ///   - expectation: Changes a copy of the state before the action into the state
    ///     expected after it; leave it out when the action must not change the state. With
    ///     ``Exhaustivity/off`` it is applied to the actual state, which must not change.
    ///   - fileID: The file a failure is reported in: the caller's, by default.
    ///   - filePath: The path of that file, which XCTest reports.
    ///   - line: The line a failure is reported at: the caller's, by default.
    ///   - column: The column a failure is reported at: the caller's, by default.
    ///   - isolation: The actor the expectation runs on: the caller's.
    /// - Returns: The action's running effects, to cancel or await them.
    @discardableResult
    public func send(
        _ action: Action,
        assert expectation: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async -> StoreTask {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let (id, exhaustivity) = settings.withLock { settings in
            defer { settings.nextSendID += 1 }
            return (settings.nextSendID, settings.exhaustivity)
        }
        let task = sendToStore(.sent(action, id: id))
        settings.withLock { $0.tasks.append(task) }
        let (unhandled, sent) = log.takeSent(id)
        if let last = unhandled.last {
            settings.withLock { $0.state = last.state }
            if exhaustivity == .on {
                reportIssue(Message.unhandledBeforeSend(unhandled.map(\.action), sending: action), site)
            }
        }
        guard let sent else {
            // The store reduces a sent action before `send` returns; this cannot happen.
            reportIssue("The test store lost the action it sent: \(describe(action))", site)
            return task
        }
        assertChange(to: sent.state, by: expectation, after: "sending \(describe(action))", exhaustivity: exhaustivity, at: site)
        return task
    }

    // MARK: - Receiving

    /// Receives the next action an effect sent, which must equal `expected`, and asserts the
    /// state after it.
    ///
    /// Waits for the action while an effect that could send it is running (up to
    /// ``timeout``); fails at once when none is. With ``Exhaustivity/off``, earlier actions
    /// that do not match are skipped.
    public func receive(
        _ expected: Action,
        assert expectation: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async where Action: Equatable {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(
            matching: { $0 == expected },
            named: describe(expected),
            expectedAction: expected,
            expectation: expectation,
            at: site
        )
    }

    /// Receives the next action an effect sent, which must satisfy `isExpected` (say, be of
    /// one case: `{ if case .loaded = $0 { true } else { false } }`), and asserts the state
    /// after it.
    public func receive(
        where isExpected: (Action) -> Bool,
        assert expectation: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await receive(matching: isExpected, named: "an action matching the condition", expectedAction: nil, expectation: expectation, at: site)
    }

    private func receive(
        matching isExpected: (Action) -> Bool,
        named name: String,
        expectedAction: Action?,
        expectation: ((inout State) throws -> Void)?,
        at site: CallSite,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let (exhaustivity, timeout) = settings.withLock { ($0.exhaustivity, $0.timeout) }
        while true {
            switch await log.waitForAction(timeout: timeout) {
            case .idle:
                reportIssue(Message.nothingReceived(expected: name), site)
                return
            case .timedOut:
                reportIssue(Message.receiveTimedOut(expected: name, timeout: timeout, running: log.runningOrigins), site)
                return
            case .action:
                break
            }
            guard let entry = log.takeFirst() else { continue }
            if isExpected(entry.action) {
                assertChange(to: entry.state, by: expectation, after: "receiving \(describe(entry.action))", exhaustivity: exhaustivity, at: site)
                return
            }
            settings.withLock { $0.state = entry.state }
            if exhaustivity == .on {
                reportIssue(Message.unexpectedAction(expected: name, expectedAction: expectedAction, received: entry.action), site)
                return
            }
        }
    }

    // MARK: - Finishing

    /// Waits for every running effect to finish (up to `timeout`, or ``timeout``), then fails
    /// the test for each effect still running, cancelling it, and for each action received
    /// but not asserted. With ``Exhaustivity/off`` it only waits.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        isolation: isolated (any Actor)? = #isolation
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        _ = await log.waitForEffects(timeout: timeout ?? self.timeout)
        guard exhaustivity == .on else { return }
        checkForLeftovers(at: site)
    }

    /// Drops the actions received and not asserted yet: the state moves on to after the last
    /// of them, and they no longer fail the test.
    public func skipReceivedActions() {
        if let last = log.takeAll().last {
            settings.withLock { $0.state = last.state }
        }
    }

    /// Cancels every running effect; they no longer fail the test.
    public func skipInFlightEffects() {
        cancelEffects()
    }

    private func cancelEffects() {
        let tasks = settings.withLock { settings in
            defer { settings.tasks = [] }
            return settings.tasks
        }
        for task in tasks { task.cancel() }
        log.forgetRunning()
    }

    /// Reports running effects (and cancels them) and unasserted actions.
    private func checkForLeftovers(at site: CallSite) {
        let running = log.runningOrigins
        if !running.isEmpty {
            reportIssue(Message.effectsStillRunning(startedBy: running), site)
            cancelEffects()
        }
        let unreceived = log.takeAll()
        if let last = unreceived.last {
            settings.withLock { $0.state = last.state }
            reportIssue(Message.unreceivedActions(unreceived.map(\.action)), site)
        }
    }

    // MARK: - Asserting a change

    /// Compares `actual` with what `expectation` makes of the state before it, reports a diff
    /// if they differ, and moves the state on to `actual`.
    private func assertChange(
        to actual: State,
        by expectation: ((inout State) throws -> Void)?,
        after step: String,
        exhaustivity: Exhaustivity,
        at site: CallSite
    ) {
        let before = settings.withLock { settings in
            defer { settings.state = actual }
            return settings.state
        }
        var expected = exhaustivity == .on ? before : actual
        do {
            try expectation?(&expected)
        } catch {
            reportIssue(Message.expectationThrew(error, after: step), site)
            return
        }
        if expected != actual {
            reportIssue(Message.stateMismatch(after: step, expected: expected, actual: actual), site)
        } else if exhaustivity == .on, expectation != nil, expected == before {
            reportIssue(Message.needlessExpectation(after: step), site)
        }
    }
}

/// How much of what a reducer does a ``TestStore`` requires the test to assert.
public enum Exhaustivity: Sendable, Equatable {
    /// Every state change, every action effects send and every running effect must be
    /// asserted: the state closure states the whole change, each action is received, and no
    /// effect may run at the end of the test.
    case on
    /// Only what the test states is checked: the closure sets the properties it cares about
    /// (assign absolute values, `$0.count = 2`, not `$0.count += 1`), `receive` skips actions
    /// until one matches, and actions and effects left at the end are dropped.
    case off
}
