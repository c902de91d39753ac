import Observation
import Revertible

/// Reading ``Store/state`` inside `withObservationTracking` (or a SwiftUI view)
/// tracks it, and every reduction step reports a change to it.
extension Store: Observable {}

extension Store {
    /// A callback registered with ``subscribe(_:)``.
    @usableFromInline
    struct Subscriber: Sendable {
        let id: UInt64
        /// The version current when it subscribed; earlier steps are not its business.
        @usableFromInline let since: UInt64
        @usableFromInline let onChange: @Sendable (State) -> Void

        /// A subscriber that hands `deliver` each value of `value(state)` that differs from
        /// the last one it saw, starting from `first`.
        static func distinct<Value: Equatable & Sendable>(
            id: UInt64, since: UInt64, from first: Value,
            of value: @escaping @Sendable (State) -> Value,
            deliver: @escaping @Sendable (Value) -> Void
        ) -> Subscriber {
            let last = Locked(first)
            return Subscriber(id: id, since: since) { state in
                let new = value(state)
                let changed = last.withLock { last in
                    guard last != new else { return false }
                    last = new
                    return true
                }
                if changed { deliver(new) }
            }
        }
    }

    /// The state after one reduction step, waiting to be delivered.
    @usableFromInline
    struct Change: Sendable {
        /// `nil` when no subscriber was registered at the step: one registered later skips
        /// it, so it needs no copy of the state (which would keep the state's storage shared
        /// until delivered).
        @usableFromInline let state: State?
        @usableFromInline let version: UInt64

        @usableFromInline
        init(state: State?, version: UInt64) {
            self.state = state
            self.version = version
        }
    }

    /// Calls `onChange` with the new state after every later reduction step, in order.
    ///
    /// It is not called with the current state; read ``state`` for that. It runs on
    /// the thread that delivers the change, outside the store's lock, so it may read
    /// the state or send actions; those actions are reduced at once and their
    /// notifications follow this one.
    ///
    /// - Parameter onChange: Receives each new state.
    /// - Returns: A subscription that must be kept alive; releasing it unsubscribes.
    public func subscribe(_ onChange: @escaping @Sendable (State) -> Void) -> StoreSubscription {
        let id = core.withLock { core in
            let id = core.makeID()
            core.subscribers.append(Subscriber(id: id, since: core.version, onChange: onChange))
            return id
        }
        return StoreSubscription { [weak self] in
            self?.core.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
    }

    /// A stream that starts with the current state, then yields the state after every
    /// reduction step, in order.
    ///
    /// Each access makes a new, unbounded stream, so a slow reader sees every state.
    /// Ending the iteration (leaving the loop or cancelling its task) unsubscribes;
    /// the stream finishes when the store is released.
    public var states: AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self)
        let id = core.withLock { $0.makeID() }
        continuation.onTermination = { [weak self] _ in
            self?.core.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        core.withLock { core in
            // Under the lock, so no step falls between the first value and the next.
            continuation.yield(core.state)
            core.streams[id] = continuation
        }
        return stream
    }

    /// Records the step that just changed `core.state`: streams get it at once (a
    /// yield runs no user code), everything else is queued for ``deliverChanges()``.
    @inlinable
    func recordChange(in core: inout Core) {
        core.version += 1
        if !core.streams.isEmpty {
            for stream in core.streams.values {
                stream.yield(core.state)
            }
        }
        core.pendingChanges.append(Change(state: core.subscribers.isEmpty ? nil : core.state, version: core.version))
    }

    /// Calls observers for every queued step, oldest first, outside the lock.
    ///
    /// Only one thread delivers at a time; a send made meanwhile (from another thread
    /// or from an observer) just queues its step, so observers never run re-entrantly
    /// and always see steps in order.
    @inlinable
    func deliverChanges() {
        var subscribers: [Subscriber] = []
        while let change = nextChange(subscribers: &subscribers) {
            registrar.withMutation(of: self, keyPath: stateKeyPath) {}
            guard let state = change.state else { continue }
            for subscriber in subscribers {
                subscriber.onChange(state)
            }
        }
    }

    /// The oldest step not delivered yet, and in `subscribers` those to call for it.
    @inlinable
    func nextChange(subscribers: inout [Subscriber]) -> Change? {
        if !subscribers.isEmpty { subscribers = [] }
        return core.withLock { core in
            guard core.deliveredChanges < core.pendingChanges.count else {
                core.pendingChanges = []
                core.deliveredChanges = 0
                core.isDeliveringChanges = false
                return nil
            }
            let change = core.pendingChanges[core.deliveredChanges]
            core.deliveredChanges += 1
            if change.state != nil {
                // The queue keeps no state it has handed out.
                core.pendingChanges[core.deliveredChanges - 1] = Change(state: nil, version: change.version)
                for subscriber in core.subscribers where subscriber.since < change.version {
                    subscribers.append(subscriber)
                }
            }
            return change
        }
    }
}

// MARK: - Observing one derived value

extension Store {
    /// Calls `onChange` with `value(state)` after each later reduction step that changes it,
    /// and never for a step that leaves it equal: an observer of `\.hasUndo` is not woken by
    /// a hover update.
    ///
    /// ```swift
    /// let subscription = store.observe(\.hasUndo) { hasUndo in
    ///     print("undo is now", hasUndo ? "enabled" : "disabled")
    /// }
    /// ```
    ///
    /// It is not called with the current value. Like ``subscribe(_:)``, it runs outside the
    /// store's lock, one step at a time and in order; `value` runs there too, once per step,
    /// so keep it cheap.
    ///
    /// - Parameters:
    ///   - value: Derives the observed value from the state; a key path will do.
    ///   - onChange: Receives each new, different value.
    /// - Returns: A subscription that must be kept alive; releasing it unsubscribes.
    public func observe<Value: Equatable & Sendable>(
        _ value: @escaping @Sendable (State) -> Value,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> StoreSubscription {
        let id = core.withLock { core in
            let id = core.makeID()
            core.subscribers.append(.distinct(id: id, since: core.version, from: value(core.state), of: value, deliver: onChange))
            return id
        }
        return StoreSubscription { [weak self] in
            self?.core.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
    }

    /// A stream that starts with `value(state)`, then yields it after each reduction step
    /// that changes it, in order; equal values in a row are never repeated.
    ///
    /// ```swift
    /// for await canUndo in store.values(of: \.hasUndo) {
    ///     print("undo", canUndo ? "enabled" : "disabled")
    /// }
    /// ```
    ///
    /// Each call makes a new, unbounded stream. Ending the iteration unsubscribes; the stream
    /// finishes when the store is released.
    public func values<Value: Equatable & Sendable>(
        of value: @escaping @Sendable (State) -> Value
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let finisher = StreamFinisher(continuation)
        let id = core.withLock { core in
            let id = core.makeID()
            let first = value(core.state)
            // Under the lock, so no step falls between the first value and the next.
            continuation.yield(first)
            core.subscribers.append(.distinct(id: id, since: core.version, from: first, of: value) { new in
                finisher.continuation.yield(new)
            })
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.core.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
        return stream
    }
}

/// Finishes a stream fed by a subscriber when the subscriber is dropped (its store released).
private final class StreamFinisher<Value: Sendable>: Sendable {
    let continuation: AsyncStream<Value>.Continuation

    init(_ continuation: AsyncStream<Value>.Continuation) {
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }
}
