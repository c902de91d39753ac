/// A description of how a feature's state evolves in response to actions.
///
/// A reducer is the only place where a ``Store`` changes its state. It mutates the
/// state synchronously and describes any further work, such as asynchronous calls, as
/// an ``Effect`` that the store runs afterwards, so the state change itself stays
/// deterministic and easy to test.
///
/// ```swift
/// struct Counter: Reducer {
///     enum Action: Sendable { case increment, decrement }
///
///     func reduce(into state: inout Int, action: Action) -> Effect<Action> {
///         switch action {
///         case .increment: state += 1
///         case .decrement: state -= 1
///         }
///         return .none
///     }
/// }
/// ```
///
/// Reducers are `Sendable` because a store may run them from whichever thread calls
/// ``Store/send(_:)``. Keep them fast and free of side effects, and never call back
/// into the store from a reducer: the store holds its lock while reducing.
public protocol Reducer<State, Action>: Sendable {
    /// The state the reducer evolves.
    associatedtype State

    /// The actions the reducer responds to; sendable because effects deliver them
    /// from other tasks.
    associatedtype Action: Sendable

    /// Applies `action` to `state` and returns the work to run afterwards.
    ///
    /// - Parameters:
    ///   - state: The current state, updated in place.
    ///   - action: The action to handle.
    /// - Returns: An effect producing further actions, or ``Effect/none``.
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}
