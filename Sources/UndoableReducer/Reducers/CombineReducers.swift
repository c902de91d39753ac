/// A reducer that runs several reducers over the same state, one after another.
///
/// Each reducer sees the state as left by the ones listed before it, and the effects
/// of all of them are merged. List child ``Scope``s before the parent logic that reads
/// their results, so the parent sees the children's state after the action.
///
/// ```swift
/// let app = CombineReducers<AppState, AppAction> {
///     Scope(state: \.counter, embed: AppAction.counter, extract: \.counter) {
///         Counter()
///     }
///     Reduce { state, action in
///         state.actionCount += 1
///         return .none
///     }
/// }
/// ```
public struct CombineReducers<State, Action: Sendable>: Reducer {
    private let reducers: [any Reducer<State, Action>]

    /// Combines the reducers listed in `build`, in order.
    public init(@ReducerBuilder<State, Action> _ build: () -> [any Reducer<State, Action>]) {
        self.reducers = build()
    }

    /// Runs every combined reducer in order and merges their effects.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        .merge(reducers.map { $0.reduce(into: &state, action: action) })
    }
}
