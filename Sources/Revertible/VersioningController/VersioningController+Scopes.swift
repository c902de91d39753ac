extension VersioningController {

    /// Starts a new scope: a barrier that undo and redo do not cross until it is popped.
    /// ``scopeLevel`` goes up by one and ``hasUndo`` starts out `false`.
    public func pushNewScope() {
        change { $0.history.pushScope() }
    }

    /// Ends the current scope, squashing its changes into one step on the scope below, so a
    /// single ``undo()`` there takes them all back. Does nothing at the outermost scope.
    public func popCurrentScope() throws(Failure) {
        try operateOnTrackedValue { (history, _) throws(ReversionError) in
            _ = try history.popScope()
            return false
        }
    }

    /// Undoes every step of the current scope, staying in it, and returns the resulting
    /// version.
    @discardableResult
    public func undoCurrentScope() throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.undoScope(&value) > 0 }
    }

    /// Undoes every step of the current scope on `value`, staying in the scope.
    public func undoCurrentScope(_ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.undoScope(&value) > 0 }
    }

    /// Redoes every step of the current scope and returns the resulting version.
    @discardableResult
    public func redoCurrentScope() throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.redoScope(&value) > 0 }
    }

    /// Redoes every step of the current scope on `value`.
    public func redoCurrentScope(_ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.redoScope(&value) > 0 }
    }

    /// Abandons the current scope: undoes all its changes, removes it, and returns the
    /// resulting version. Does nothing at the outermost scope.
    @discardableResult
    public func undoAndPopCurrentScope() throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.discardScope(&value) }
    }

    /// Abandons the current scope on `value`: undoes all its changes and removes it.
    public func undoAndPopCurrentScope(_ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.discardScope(&value) }
    }
}
