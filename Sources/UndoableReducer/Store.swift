import Observation
import Revertible

/// The runtime of a feature: it owns the state, reduces the actions sent to it, runs
/// the effects its reducer returns, and tells observers about every change.
///
/// ```swift
/// let store = Store(initialState: 0, reducer: Counter())
/// store.send(.increment)
/// #expect(store.state == 1)
/// ```
///
/// ## Isolation
///
/// `Store` is not bound to an actor: it is a `Sendable` class whose state sits behind
/// a lock, so command-line tools, servers and tests can call ``send(_:)``
/// synchronously from any thread or task, and an app can still keep one on the main
/// actor. A `@MainActor` store would force every non-UI caller to hop to the main
/// actor (or `await`) just to change a value. The price of this choice:
///
/// - Reducers run on the sending thread while the store holds its lock, so they must
///   stay fast and must not call back into the store.
/// - Observers are called on whichever thread delivered the change, never under the
///   lock; UI code that needs the main actor must hop there itself.
///
/// ## Ordering
///
/// Actions are reduced one at a time, never re-entrantly. ``send(_:)`` reduces its
/// action and every action of the synchronous ``Effect/send(_:)`` effects that follow
/// from it, first in first out, as one atomic step, so the state is updated before
/// `send` returns and no other thread sees a half-finished chain. Asynchronous
/// ``Effect/run(operation:catch:)`` effects run in tasks owned by the store; the actions
/// they send are reduced in the order sent. Observers receive each step's resulting
/// state in the order the steps happened, one notification at a time, including when
/// an observer sends an action itself. Every step notifies, whether or not it changed
/// the state.
///
/// ## Lifetime
///
/// Effects hold the store weakly. Releasing the last reference to the store cancels
/// all of its running effects and finishes its ``states`` streams.
public final class Store<State: Sendable, Action: Sendable>: Sendable {
    /// The reducer's `reduce`, as a closure made where the store is made: there the reducer's
    /// concrete type is known, so its `reduce` (and, for `undoable`, the whole recording path
    /// down to the history) is specialized for the caller's state instead of running generic
    /// code through an existential, which looks up generic metadata at every step.
    @usableFromInline let reduce: @Sendable (inout State, Action) -> Effect<Action>
    @usableFromInline let registrar = ObservationRegistrar()
    /// `\.state`, made once: a key path into a generic class is otherwise instantiated at
    /// run time (demangling its generic arguments) at every access and every step.
    @usableFromInline let stateKeyPath: KeyPath<Store, State> & Sendable = \.state
    @usableFromInline let core: Locked<Core>

    /// Everything mutable about a store, guarded by one lock so that a state change,
    /// the effects it starts and the notifications it queues are recorded atomically.
    @usableFromInline
    struct Core {
        @usableFromInline var state: State
        /// Counts reduction steps; observers use it to skip steps from before they
        /// subscribed.
        @usableFromInline var version: UInt64 = 0
        var nextID: UInt64 = 0
        var effects: [UInt64: Task<Void, Never>] = [:]
        @usableFromInline var subscribers: [Subscriber] = []
        @usableFromInline var streams: [UInt64: AsyncStream<State>.Continuation] = [:]
        /// Steps whose observers have not been called yet, oldest first, from
        /// `deliveredChanges` on (the ones before are delivered; emptied once all are).
        @usableFromInline var pendingChanges: [Change] = []
        @usableFromInline var deliveredChanges = 0
        /// Whether some thread is draining `pendingChanges`; exactly one does at a time.
        @usableFromInline var isDeliveringChanges = false

        mutating func makeID() -> UInt64 {
            defer { nextID += 1 }
            return nextID
        }
    }

    /// Creates a store that starts in `initialState` and evolves it with `reducer`.
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - reducer: The reducer that handles every action sent to the store.
    @inlinable
    public convenience init(initialState: State, reducer: some Reducer<State, Action>) {
        self.init(initialState: initialState) { state, action in
            reducer.reduce(into: &state, action: action)
        }
    }

    /// Creates a store that starts in `initialState` and evolves it with `reduce`.
    @usableFromInline
    init(initialState: State, reduce: @escaping @Sendable (inout State, Action) -> Effect<Action>) {
        self.reduce = reduce
        self.core = Locked(Core(state: initialState))
    }

    deinit {
        // Cancel and finish outside the lock: both run cancellation and termination
        // handlers synchronously.
        let (effects, streams) = core.withLock { core in
            defer {
                core.effects = [:]
                core.streams = [:]
            }
            return (Array(core.effects.values), Array(core.streams.values))
        }
        for effect in effects { effect.cancel() }
        for stream in streams { stream.finish() }
    }

    /// The current state.
    ///
    /// Reading it inside `withObservationTracking` tracks it; see ``Store``'s
    /// `Observable` conformance.
    public var state: State {
        registrar.access(self, keyPath: stateKeyPath)
        return core.withLock { $0.state }
    }

    /// Reduces `action`, then starts the effects the reducer returned.
    ///
    /// The state is updated before this method returns. Safe to call from any thread,
    /// and from observers; never from a reducer.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: A handle on the asynchronous effects this action started, to await
    ///   them (in tests and command-line tools) or cancel them.
    @inlinable @discardableResult
    public func send(_ action: Action) -> StoreTask {
        send(action, from: nil)
    }

    /// Reduces `action`; `parent` is the effect that sent it, if any, which adopts the
    /// effects the action starts so that awaiting or cancelling it covers them too.
    ///
    /// Inlined into the client with `send(_:)`, so that it runs compiled for the store's
    /// `State` and `Action`: as generic code it spent most of a plain reducer's action
    /// looking up the metadata of `Core`, `Change`, `Optional<State>` and the like.
    @inlinable
    func send(_ action: Action, from parent: ChildEffects?) -> StoreTask {
        let (tasks, orphans, mustDeliver) = core.withLock { core in
            var actions = [action]
            var next = 0
            var work: [@Sendable (Send<Action>) async -> Void] = []
            while next < actions.count {
                let effect = reduce(&core.state, actions[next])
                next += 1
                for operation in effect.operations {
                    switch operation {
                    case let .send(action): actions.append(action)
                    case let .run(operation): work.append(operation)
                    }
                }
            }
            recordChange(in: &core)
            var tasks: [Task<Void, Never>] = []
            var orphans: [Task<Void, Never>] = []
            for operation in work {
                let (id, task) = startEffect(operation, parent: parent, in: &core)
                tasks.append(task)
                if let parent, !parent.adopt(task, id: id) {
                    orphans.append(task)
                }
            }
            let mustDeliver = !core.isDeliveringChanges
            core.isDeliveringChanges = true
            return (tasks, orphans, mustDeliver)
        }
        // Outside the lock: cancelling runs cancellation handlers, which may send.
        for orphan in orphans { orphan.cancel() }
        if mustDeliver {
            deliverChanges()
        }
        return StoreTask(tasks: tasks)
    }

    /// Starts `operation` in a task the store can cancel.
    ///
    /// Called under the lock, which the task takes before it deregisters, so it cannot
    /// deregister (from the store or from `parent`) before it is registered.
    @usableFromInline
    func startEffect(
        _ operation: @escaping @Sendable (Send<Action>) async -> Void,
        parent: ChildEffects?,
        in core: inout Core
    ) -> (id: UInt64, task: Task<Void, Never>) {
        let id = core.makeID()
        let children = ChildEffects()
        let send = Send<Action> { [weak self] action in
            _ = self?.send(action, from: children)
        }
        let task = Task { [weak self] in
            await withTaskCancellationHandler {
                await operation(send)
                // Await what the effect's actions started, so `StoreTask.finish()`
                // covers the whole chain of work an action set off.
                await children.finish()
            } onCancel: {
                children.cancel()
            }
            self?.core.withLock { _ = $0.effects.removeValue(forKey: id) }
            parent?.remove(id: id)
        }
        core.effects[id] = task
        return (id, task)
    }
}

/// The running effects started by the actions one effect sent.
///
/// Finished effects remove themselves, so a long-lived effect (a listener, a timer)
/// does not accumulate handles for every action it ever sent.
@usableFromInline
final class ChildEffects: Sendable {
    private struct Children: Sendable {
        var running: [UInt64: Task<Void, Never>] = [:]
        var isCancelled = false
    }

    private let children = Locked(Children())

    /// Records a child effect; returns `false`, without recording it, when this
    /// parent was already cancelled and the caller must cancel the child. An action
    /// can slip in between the parent's cancellation and the start of its effects.
    @usableFromInline
    func adopt(_ task: Task<Void, Never>, id: UInt64) -> Bool {
        children.withLock { children in
            guard !children.isCancelled else { return false }
            children.running[id] = task
            return true
        }
    }

    func remove(id: UInt64) {
        children.withLock { _ = $0.running.removeValue(forKey: id) }
    }

    func cancel() {
        let running = children.withLock { children in
            children.isCancelled = true
            return Array(children.running.values)
        }
        for task in running { task.cancel() }
    }

    /// Waits until no child is running, including children started while waiting.
    func finish() async {
        // A child removes itself before it completes, so this loop always advances.
        while let task = children.withLock({ $0.running.values.first }) {
            await task.value
        }
    }
}
