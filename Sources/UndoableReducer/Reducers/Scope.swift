/// A reducer that runs a child reducer on one part of a parent's state, for the
/// parent actions that wrap a child action.
///
/// Without case paths, the parent action case is addressed by two closures: `embed`
/// wraps a child action into the parent action (an enum case constructor such as
/// `AppAction.counter` fits), and `extract` returns the child action when the parent
/// action wraps one (a key path to an optional computed property reads best).
///
/// ```swift
/// enum AppAction: Sendable {
///     case counter(Counter.Action)
///
///     var counter: Counter.Action? {
///         if case let .counter(action) = self { action } else { nil }
///     }
/// }
/// ```
///
/// The parent's reducer then runs `Counter` on its `counter` state:
///
/// ```swift
/// let counter = Scope(state: \AppState.counter, embed: AppAction.counter, extract: \.counter) {
///     Counter()
/// }
/// ```
///
/// Parent actions that do not wrap a child action are ignored. Effects of the child
/// are mapped through `embed`, so their actions come back as parent actions.
public struct Scope<State, Action: Sendable, Child: Reducer>: Reducer {
    private let toChildState: WritableKeyPath<State, Child.State> & Sendable
    private let embed: @Sendable (Child.Action) -> Action
    private let extract: @Sendable (Action) -> Child.Action?
    private let child: Child

    /// Scopes `child` to the state at `state` and the actions `embed` and `extract`
    /// convert.
    ///
    /// - Parameters:
    ///   - state: Where the child's state lives in the parent's state.
    ///   - embed: Wraps a child action into a parent action.
    ///   - extract: Returns the child action a parent action wraps, or `nil`.
    ///   - child: The reducer to run on the child's state.
    public init(
        state: WritableKeyPath<State, Child.State> & Sendable,
        embed: @escaping @Sendable (Child.Action) -> Action,
        extract: @escaping @Sendable (Action) -> Child.Action?,
        child: () -> Child
    ) {
        self.toChildState = state
        self.embed = embed
        self.extract = extract
        self.child = child()
    }

    /// Runs the child reducer when `action` wraps a child action.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        guard let childAction = extract(action) else { return .none }
        return child
            .reduce(into: &state[keyPath: toChildState], action: childAction)
            .map(embed)
    }
}
