/// Work a reducer asks the store to do after it has changed the state.
///
/// Reducers stay synchronous and deterministic; anything that takes time or talks to
/// the outside world is described as an effect and run by the ``Store``, which feeds
/// the actions the effect produces back through the reducer, one at a time.
///
/// ```swift
/// case .refreshTapped:
///     state.isLoading = true
///     return .run { send in
///         let items = try await api.fetchItems()
///         send(.itemsLoaded(items))
///     }
/// ```
public struct Effect<Action: Sendable>: Sendable {
    /// One unit of work. An effect is a flat list of these, so merging is concatenation
    /// and mapping touches each unit once.
    @usableFromInline
    enum Operation: Sendable {
        /// An action to reduce immediately after the current one, before `send` returns.
        case send(Action)
        /// Asynchronous work the store runs in its own task.
        case run(@Sendable (Send<Action>) async -> Void)
    }

    @usableFromInline let operations: [Operation]

    @usableFromInline
    init(operations: [Operation]) {
        self.operations = operations
    }

    /// An effect that does nothing.
    public static var none: Self {
        Self(operations: [])
    }

    /// An effect that reduces `action` right after the current action, before the
    /// store's ``Store/send(_:)`` returns.
    ///
    /// Prefer calling shared logic directly in the reducer; use this when another
    /// reducer in a composition must see the action too.
    public static func send(_ action: Action) -> Self {
        Self(operations: [.send(action)])
    }

    /// An effect that runs asynchronous work in a task owned by the store.
    ///
    /// The work is cancelled when the store is deallocated or its ``StoreTask`` is
    /// cancelled; actions sent after cancellation are dropped.
    ///
    /// - Parameters:
    ///   - operation: The work. Call `send` to feed actions back into the store; they
    ///     are reduced in the order sent.
    ///   - handler: Turns an error thrown by `operation` into actions. Cancellation
    ///     errors never reach it. Without a handler, other errors end the effect silently,
    ///     so pass one whenever failure matters to the state.
    public static func run(
        operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
        catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil
    ) -> Self {
        Self(operations: [
            .run { send in
                do {
                    try await operation(send)
                } catch is CancellationError {
                    return
                } catch {
                    guard !Task.isCancelled else { return }
                    await handler?(error, send)
                }
            }
        ])
    }
}
