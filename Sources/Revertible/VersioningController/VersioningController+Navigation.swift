extension VersioningController {

    /// Undoes to `target` in the current scope (one step by default, a number of steps, or a
    /// tagged version) and returns the version reached. With a root object, writes it to the
    /// root too. All or nothing: a refusal changes nothing.
    @discardableResult
    public func undo(to target: HistoryTarget = .oneStep) throws(Failure) -> Value {
        try perform(.undo(target))
    }

    /// Undoes `value` to `target` in the current scope, in place.
    ///
    /// If `value` is not the current version (you changed it without appending), that change
    /// is recorded first, so it is the change undone and can be redone.
    public func undo(_ value: inout Value, to target: HistoryTarget = .oneStep) throws(Failure) {
        try perform(.undo(target), on: &value)
    }

    /// Undoes the tracked property of `root` to `target` in the current scope.
    public func undo(root: inout Root, to target: HistoryTarget = .oneStep) throws(Failure) {
        try perform(.undo(target), on: &root[keyPath: self.root.keyPath])
    }

    /// Redoes to `target` in the current scope (one step by default, a number of steps, or up
    /// to and including the change that made a tagged version) and returns the version
    /// reached. With a root object, writes it to the root too.
    @discardableResult
    public func redo(to target: HistoryTarget = .oneStep) throws(Failure) -> Value {
        try perform(.redo(target))
    }

    /// Redoes `value` to `target` in the current scope, in place.
    public func redo(_ value: inout Value, to target: HistoryTarget = .oneStep) throws(Failure) {
        try perform(.redo(target), on: &value)
    }

    /// Redoes the tracked property of `root` to `target` in the current scope.
    public func redo(root: inout Root, to target: HistoryTarget = .oneStep) throws(Failure) {
        try perform(.redo(target), on: &root[keyPath: self.root.keyPath])
    }

    /// Moves to `destination` in the current scope's tree of versions, whichever branch it is
    /// on (up to the nearest common ancestor, then down), and returns the version reached.
    /// All or nothing. Redo then follows the branch moved along.
    @discardableResult
    public func move(to destination: HistoryDestination) throws(Failure) -> Value {
        try perform(.move(destination))
    }

    /// Moves `value` to `destination` in the current scope's tree of versions, in place.
    public func move(_ value: inout Value, to destination: HistoryDestination) throws(Failure) {
        try perform(.move(destination), on: &value)
    }

    /// Moves the tracked property of `root` to `destination`.
    public func move(root: inout Root, to destination: HistoryDestination) throws(Failure) {
        try perform(.move(destination), on: &root[keyPath: self.root.keyPath])
    }
}
