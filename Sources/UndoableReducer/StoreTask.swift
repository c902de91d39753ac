/// The asynchronous effects started by one ``Store/send(_:)``.
///
/// Tests and command-line tools await it to know the work an action set off is done:
///
/// ```swift
/// await store.send(.refreshTapped).finish()
/// #expect(store.state.items.count == 3)
/// ```
public struct StoreTask: Sendable {
    @usableFromInline let tasks: [Task<Void, Never>]

    @usableFromInline
    init(tasks: [Task<Void, Never>]) {
        self.tasks = tasks
    }

    /// Waits until the effects have finished, including the effects started by the
    /// actions they sent.
    ///
    /// Cancelling the waiting task cancels the effects, so a test with a time limit
    /// does not leave them running.
    public func finish() async {
        for task in tasks {
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Cancels the effects; actions they send afterwards are dropped.
    public func cancel() {
        for task in tasks { task.cancel() }
    }
}
