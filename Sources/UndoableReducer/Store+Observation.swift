import Observation

/// Reading ``Store/state`` inside `withObservationTracking` (or a SwiftUI view)
/// tracks it, and every reduction step reports a change to it.
extension Store: Observable {}

extension Store {
    /// A callback registered with ``subscribe(_:)``.
    struct Subscriber: Sendable {
        let id: UInt64
        /// The version current when it subscribed; earlier steps are not its business.
        let since: UInt64
        let onChange: @Sendable (State) -> Void
    }

    /// The state after one reduction step, waiting to be delivered.
    struct Change: Sendable {
        let state: State
        let version: UInt64
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
    func recordChange(in core: inout Core) {
        core.version += 1
        for stream in core.streams.values {
            stream.yield(core.state)
        }
        core.pendingChanges.append(Change(state: core.state, version: core.version))
    }

    /// Calls observers for every queued step, oldest first, outside the lock.
    ///
    /// Only one thread delivers at a time; a send made meanwhile (from another thread
    /// or from an observer) just queues its step, so observers never run re-entrantly
    /// and always see steps in order.
    func deliverChanges() {
        while let (change, subscribers) = nextChange() {
            registrar.withMutation(of: self, keyPath: \.state) {}
            for subscriber in subscribers {
                subscriber.onChange(change.state)
            }
        }
    }

    private func nextChange() -> (Change, [Subscriber])? {
        core.withLock { core in
            guard !core.pendingChanges.isEmpty else {
                core.isDeliveringChanges = false
                return nil
            }
            let change = core.pendingChanges.removeFirst()
            return (change, core.subscribers.filter { $0.since < change.version })
        }
    }
}
