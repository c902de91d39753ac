/// A reducer built from a closure, for features too small to deserve their own type
/// and for glue logic inside ``CombineReducers``.
///
/// ```swift
/// let counter = Reduce<Int, CounterAction> { count, action in
///     switch action {
///     case .increment: count += 1
///     case .decrement: count -= 1
///     }
///     return .none
/// }
/// ```
public struct Reduce<State, Action: Sendable>: Reducer {
    private let body: @Sendable (inout State, Action) -> Effect<Action>

    /// Creates a reducer that runs `reduce` for every action.
    ///
    /// - Parameter reduce: Mutates the state for an action and returns the effect to run.
    public init(_ reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>) {
        self.body = reduce
    }

    /// Wraps another reducer, erasing its concrete type.
    ///
    /// Useful when branches of code must produce reducers of different types.
    public init(_ reducer: some Reducer<State, Action>) {
        self.body = { state, action in reducer.reduce(into: &state, action: action) }
    }

    /// Runs the closure this reducer was created with.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        body(&state, action)
    }
}
