extension Stateful {
    /// Makes `newState` the current state if the current state's
    /// ``State/successors`` allow it.
    ///
    /// Moving from no state, from a value that isn't a `State`, or to
    /// another value of the current state's own type is always allowed.
    ///
    /// - Throws: ``StateError/forbiddenTransition(from:to:)`` when the rules
    ///   forbid it; the state is then unchanged and the hook isn't called.
    public func transition<S: State>(to newState: S) throws(StateError) where S.Owner == Self {
        if let current = state as? any State,
           !type(of: current).allowsSuccessor(S.self) {
            throw .forbiddenTransition(from: name(of: type(of: current)), to: name(of: S.self))
        }
        replaceState(with: newState)
    }
}
