extension Stateful {
    /// The current state, whatever its type.
    ///
    /// Throws rather than returning `nil` so that
    /// `try? object.currentState() as? SomeState` reads as one question.
    public func currentState() throws(StateError) -> Any {
        guard let state else { throw .noCurrentState }
        return state
    }

    /// The current state if it is of type `S`, otherwise `nil`.
    public func currentState<S: State>(as stateType: S.Type) -> S? where S.Owner == Self {
        state as? S
    }

    /// Whether the current state is of type `S`, whatever its data.
    public func isIn<S: State>(_ stateType: S.Type) -> Bool where S.Owner == Self {
        state is S
    }
}
