extension VersioningController {

    /// Names the current version `tag`, so ``undo(to:)`` and ``redo(to:)`` can come back to
    /// it. A tag names one version: tagging another moves it.
    public func tagCurrentVersion(_ tag: some Hashable & Sendable) {
        if case let .object(reference, keyPath) = root, let object = reference.object as? Root {
            // Whatever the root holds now is the version being named.
            let value = object[keyPath: keyPath]
            change {
                record(value, tag: nil, at: nil, in: &$0)
                $0.history.tagCurrentVersion(tag)
            }
        } else {
            change { $0.history.tagCurrentVersion(tag) }
        }
    }

    /// The tags of a scope's versions, `nil` where a version has none: `undo` lists the
    /// versions from the scope's start up to the current one, `redo` the versions ahead, next
    /// first. For example `(["original", nil, "without-child"], ["with-child"])`.
    ///
    /// - Parameter level: The scope, by default the current one.
    public func tags(inScopeLevel level: Int? = nil) -> (undo: [AnyHashable?], redo: [AnyHashable?]) {
        read { $0.history.tags(inScopeLevel: level ?? $0.history.scopeLevel) }
    }

    /// Undoes to the version tagged `tag` in the current scope (stopping on it) and returns
    /// it. An unknown tag, or one in another scope, changes nothing.
    @discardableResult
    public func undo(to tag: some Hashable & Sendable) throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.undo(&value, to: AnyHashable(tag)) > 0 }
    }

    /// Undoes `value` to the version tagged `tag` in the current scope.
    public func undo(to tag: some Hashable & Sendable, _ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.undo(&value, to: AnyHashable(tag)) > 0 }
    }

    /// Redoes up to and including the change that made the version tagged `tag`, and returns
    /// that version. An unknown tag changes nothing.
    @discardableResult
    public func redo(to tag: some Hashable & Sendable) throws(Failure) -> Value {
        try operateOnTrackedValue { (history, value) throws(ReversionError) in try history.redo(&value, to: AnyHashable(tag)) > 0 }
    }

    /// Redoes `value` up to and including the change that made the version tagged `tag`.
    public func redo(to tag: some Hashable & Sendable, _ value: inout Value) throws(Failure) {
        try operate(on: &value) { (history, value) throws(ReversionError) in try history.redo(&value, to: AnyHashable(tag)) > 0 }
    }
}
