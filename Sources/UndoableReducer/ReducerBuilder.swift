/// Collects reducers written one per line, with `if`, `switch` and `for`, into the
/// ordered list that ``CombineReducers`` runs.
///
/// The builder only gathers reducers; it does not nest generic types, which keeps
/// compiler diagnostics and build times small at the cost of one dynamic call per
/// reducer.
@resultBuilder
public enum ReducerBuilder<State, Action: Sendable> {
    /// Accepts one reducer over the builder's state and action.
    public static func buildExpression<R: Reducer>(
        _ reducer: R
    ) -> [any Reducer<State, Action>] where R.State == State, R.Action == Action {
        [reducer]
    }

    /// Joins the reducers of consecutive lines, keeping their order.
    public static func buildBlock(_ components: [any Reducer<State, Action>]...) -> [any Reducer<State, Action>] {
        components.flatMap { $0 }
    }

    /// Includes the reducers of an `if` only when its condition held.
    public static func buildOptional(_ component: [any Reducer<State, Action>]?) -> [any Reducer<State, Action>] {
        component ?? []
    }

    /// Includes the reducers of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first component: [any Reducer<State, Action>]) -> [any Reducer<State, Action>] {
        component
    }

    /// Includes the reducers of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second component: [any Reducer<State, Action>]) -> [any Reducer<State, Action>] {
        component
    }

    /// Includes the reducers of every iteration of a `for` loop.
    public static func buildArray(_ components: [[any Reducer<State, Action>]]) -> [any Reducer<State, Action>] {
        components.flatMap { $0 }
    }
}
