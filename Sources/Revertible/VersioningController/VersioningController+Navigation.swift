extension VersioningController {

    /// Undoes the newest step of the current scope and returns the version before it. With a
    /// root object, writes that version to the root too. Does nothing when there is nothing to
    /// undo.
    @discardableResult
    public func undo() throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.undo(&value) }
    }

    /// Undoes the newest step of the current scope on `value`, in place.
    ///
    /// If `value` is not the current version (you changed it without appending), that change
    /// is recorded first, so it is the change undone and can be redone.
    public func undo(_ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.undo(&value) }
    }

    /// Undoes the newest step of the current scope on the tracked property of `root`.
    public func undo(root: inout Root) throws(Failure) {
        try undo(&root[keyPath: self.root.keyPath])
    }

    /// Redoes the next step of the current scope and returns the version after it. With a root
    /// object, writes that version to the root too. Does nothing when there is nothing to redo.
    @discardableResult
    public func redo() throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.redo(&value) }
    }

    /// Redoes the next step of the current scope on `value`, in place.
    public func redo(_ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.redo(&value) }
    }

    /// Redoes the next step of the current scope on the tracked property of `root`.
    public func redo(root: inout Root) throws(Failure) {
        try redo(&root[keyPath: self.root.keyPath])
    }

    /// Undoes up to `count` steps of the current scope and returns the resulting version. If a
    /// step fails, nothing changes: the steps before it are redone. Likewise for every move of
    /// several steps (to a tag, through a scope).
    @discardableResult
    public func undo(steps count: Int) throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.undo(&value, steps: count) > 0 }
    }

    /// Redoes up to `count` steps of the current scope and returns the resulting version. If a
    /// step fails, nothing changes.
    @discardableResult
    public func redo(steps count: Int) throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.redo(&value, steps: count) > 0 }
    }
}
