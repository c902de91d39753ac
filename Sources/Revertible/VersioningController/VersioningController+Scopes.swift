extension VersioningController {

    /// Starts a new scope on the current version: a barrier that undo and redo do not cross
    /// until it is popped. ``scopeLevel`` goes up by one and ``hasUndo`` starts out `false`;
    /// the current version's tags name the scope's start.
    public func pushNewScope() {
        _ = try? perform(.pushNewScope)
    }

    /// Ends the current scope, squashing its changes into one step on the scope below, so a
    /// single undo there takes them all back. At the outermost scope, refuses with
    /// ``HistoryError/noScopeToPop``.
    public func popCurrentScope() throws(Failure) {
        try perform(.popCurrentScope)
    }

    /// Undoes every step of the current scope, staying in it, and returns the resulting
    /// version.
    @discardableResult
    public func undoCurrentScope() throws(Failure) -> Value {
        try perform(.undoCurrentScope)
    }

    /// Undoes every step of the current scope on `value`, staying in the scope.
    public func undoCurrentScope(_ value: inout Value) throws(Failure) {
        try perform(.undoCurrentScope, on: &value)
    }

    /// Undoes every step of the current scope on the tracked property of `root`.
    public func undoCurrentScope(root: inout Root) throws(Failure) {
        try perform(.undoCurrentScope, on: &root[keyPath: self.root.keyPath])
    }

    /// Redoes every step of the current scope and returns the resulting version.
    @discardableResult
    public func redoCurrentScope() throws(Failure) -> Value {
        try perform(.redoCurrentScope)
    }

    /// Redoes every step of the current scope on `value`.
    public func redoCurrentScope(_ value: inout Value) throws(Failure) {
        try perform(.redoCurrentScope, on: &value)
    }

    /// Redoes every step of the current scope on the tracked property of `root`.
    public func redoCurrentScope(root: inout Root) throws(Failure) {
        try perform(.redoCurrentScope, on: &root[keyPath: self.root.keyPath])
    }

    /// Abandons the current scope: undoes all its changes, removes it, and returns the
    /// resulting version. A tag the scope moved goes back to the version it named before.
    /// At the outermost scope, refuses with ``HistoryError/noScopeToPop``.
    @discardableResult
    public func undoAndPopCurrentScope() throws(Failure) -> Value {
        try perform(.undoAndPopCurrentScope)
    }

    /// Abandons the current scope on `value`: undoes all its changes and removes it.
    public func undoAndPopCurrentScope(_ value: inout Value) throws(Failure) {
        try perform(.undoAndPopCurrentScope, on: &value)
    }

    /// Abandons the current scope on the tracked property of `root`.
    public func undoAndPopCurrentScope(root: inout Root) throws(Failure) {
        try perform(.undoAndPopCurrentScope, on: &root[keyPath: self.root.keyPath])
    }
}
