extension Stateful {
    /// Makes `newState` the current state, whatever the current one is.
    ///
    /// Like assigning `state`, this ignores transition rules (use
    /// `transition(to:)` to have them checked), but it only accepts this
    /// object's states and reports the change to `stateDidChange(from:to:)`.
    public func set<S: State>(_ newState: S) where S.Owner == Self {
        replaceState(with: newState)
    }

    /// Changes the current state's data in place, if the current state is of
    /// type `S`.
    ///
    /// - Throws: ``StateError/wrongState(expected:found:)`` when it isn't;
    ///   `mutation` is then not called and nothing changes.
    public func update<S: State>(
        _ stateType: S.Type,
        mutation: (inout S) -> Void
    ) throws(StateError) where S.Owner == Self {
        var current = try requireCurrentState(as: S.self)
        mutation(&current)
        replaceState(with: current)
    }

    /// Replaces the current state with `newState`, if the current state is
    /// of the same type.
    ///
    /// Use it to refresh a state's data while making sure the object hasn't
    /// moved to another state in the meantime.
    ///
    /// - Throws: ``StateError/wrongState(expected:found:)`` when the current
    ///   state is of another type; nothing changes.
    public func update<S: State>(_ newState: S) throws(StateError) where S.Owner == Self {
        _ = try requireCurrentState(as: S.self)
        replaceState(with: newState)
    }

    /// Leaves the object with no current state.
    ///
    /// Reports the change to `stateDidChange(from:to:)` when there was a
    /// state; resetting an object that has none changes nothing.
    public func resetCurrentState() {
        guard state != nil else { return }
        replaceState(with: nil)
    }

    /// The current state as an `S`, or the error saying what it is instead.
    func requireCurrentState<S: State>(as stateType: S.Type) throws(StateError) -> S {
        guard let state else {
            throw .wrongState(expected: name(of: S.self), found: nil)
        }
        guard let current = state as? S else {
            throw .wrongState(expected: name(of: S.self), found: name(of: type(of: state)))
        }
        return current
    }

    /// The only place the helpers write `state`, so that every write they
    /// make reaches the hook.
    func replaceState(with newState: Any?) {
        let oldState = state
        state = newState
        stateDidChange(from: oldState, to: newState)
    }
}
