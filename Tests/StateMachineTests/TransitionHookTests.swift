import StateMachine
import Testing

/// Records every call of the hook, and what `state` held during it.
private final class Job: Stateful {
    var state: Any?
    private(set) var changes: [String] = []
    private(set) var stateDuringHook: [String] = []

    func stateDidChange(from oldState: Any?, to newState: Any?) {
        changes.append("\(describe(oldState)) -> \(describe(newState))")
        stateDuringHook.append(describe(state))
    }

    struct Queued: State {
        typealias Owner = Job
        static var successors: Successors<Job> { .only(Running.self) }
    }

    struct Running: State {
        typealias Owner = Job
        var progress: Int
    }

    struct Cancelled: State {
        typealias Owner = Job
    }
}

private func describe(_ state: Any?) -> String {
    state.map { String(describing: $0) } ?? "nil"
}

@Suite("Transition hook")
struct TransitionHookTests {
    @Test("Every helper that changes the state reports old and new, in order")
    func callOrder() throws {
        let job = Job()

        job.set(Job.Queued())
        try job.transition(to: Job.Running(progress: 0))
        try job.update(Job.Running.self) { $0.progress = 50 }
        try job.update(Job.Running(progress: 100))
        job.resetCurrentState()

        #expect(job.changes == [
            "nil -> Queued()",
            "Queued() -> Running(progress: 0)",
            "Running(progress: 0) -> Running(progress: 50)",
            "Running(progress: 50) -> Running(progress: 100)",
            "Running(progress: 100) -> nil",
        ])
    }

    @Test("The hook runs after the new state is stored")
    func hookSeesNewState() {
        let job = Job()

        job.set(Job.Queued())
        job.set(Job.Running(progress: 1))
        job.resetCurrentState()

        #expect(job.stateDuringHook == ["Queued()", "Running(progress: 1)", "nil"])
    }

    @Test("A helper that throws doesn't call the hook")
    func failuresAreSilent() {
        let job = Job()
        job.set(Job.Queued())

        #expect(throws: StateError.self) {
            try job.update(Job.Running.self) { $0.progress = 1 }
        }
        #expect(throws: StateError.self) {
            try job.update(Job.Running(progress: 1))
        }
        #expect(throws: StateError.self) {
            try job.transition(to: Job.Cancelled())
        }

        #expect(job.changes == ["nil -> Queued()"])
    }

    @Test("Resetting an object without a state changes nothing and reports nothing")
    func resetWithoutState() {
        let job = Job()

        job.resetCurrentState()

        #expect(job.changes.isEmpty)
    }

    @Test("Direct writes to `state` bypass the hook")
    func directWritesBypassTheHook() {
        let job = Job()

        job.state = Job.Queued()
        job.state = nil

        #expect(job.changes.isEmpty)
    }
}
