extension VersioningController {

    // Each move comes in three spellings, one per way the caller holds the value (the
    // controller's copy, a value passed `inout`, a root passed `inout`). The shapes repeat
    // because they are the public API; each body is one line choosing where `perform` writes.

    /// Undoes to `target` in the current scope (one step by default, a number of steps, or a
    /// tagged version) and returns the version reached. With a root object, writes it to the
    /// root too. All or nothing: a refusal changes nothing.
    ///
    /// Undo is selective: a location another writer changed since a step was made (see
    /// ``absorb(_:)->()``) is a conflict, handled by `onConflict` (`nil`: ``conflictPolicy``) and
    /// listed in ``lastConflicts``. Only ``ConflictPolicy/refuse`` makes a conflict a refusal.
    @inlinable @discardableResult
    public func undo(to target: HistoryDestination = .steps(1), onConflict: ConflictPolicy? = nil) throws(Failure) -> Value {
        try perform(.undo(to: target), onConflict: onConflict)
    }

    /// Undoes `value` to `target` in the current scope, in place.
    ///
    /// If `value` is not the current version (you changed it without appending), that change
    /// is recorded first, so it is the change undone and can be redone.
    @inlinable
    public func undo(_ value: inout Value, to target: HistoryDestination = .steps(1), onConflict: ConflictPolicy? = nil) throws(Failure) {
        try perform(.undo(to: target), on: &value, onConflict: onConflict)
    }

    /// Undoes the tracked property of `root` to `target` in the current scope.
    @inlinable
    public func undo(root: inout Root, to target: HistoryDestination = .steps(1), onConflict: ConflictPolicy? = nil) throws(Failure) {
        try perform(.undo(to: target), on: &root[keyPath: self.root.keyPath], onConflict: onConflict)
    }

    /// Redoes to `target` in the current scope (one step by default, a number of steps, or up
    /// to and including the change that made a tagged version) and returns the version
    /// reached. With a root object, writes it to the root too.
    ///
    /// Redo re-applies what undo reverted, with the same conflict rule as undo: `onConflict`,
    /// or ``conflictPolicy`` when `nil`.
    @inlinable @discardableResult
    public func redo(to target: HistoryDestination = .steps(1), onConflict: ConflictPolicy? = nil) throws(Failure) -> Value {
        try perform(.redo(to: target), onConflict: onConflict)
    }

    /// Redoes `value` to `target` in the current scope, in place.
    @inlinable
    public func redo(_ value: inout Value, to target: HistoryDestination = .steps(1), onConflict: ConflictPolicy? = nil) throws(Failure) {
        try perform(.redo(to: target), on: &value, onConflict: onConflict)
    }

    /// Redoes the tracked property of `root` to `target` in the current scope.
    @inlinable
    public func redo(root: inout Root, to target: HistoryDestination = .steps(1), onConflict: ConflictPolicy? = nil) throws(Failure) {
        try perform(.redo(to: target), on: &root[keyPath: self.root.keyPath], onConflict: onConflict)
    }

    /// Moves to `destination` in the current scope's tree of versions, whichever branch it is
    /// on (up to the nearest common ancestor, then down), and returns the version reached.
    /// All or nothing. Redo then follows the branch moved along. Each step is taken as undo
    /// and redo take it, by `onConflict` (`nil`: ``conflictPolicy``).
    @discardableResult
    public func move(to destination: HistoryDestination, onConflict: ConflictPolicy? = nil) throws(Failure) -> Value {
        try perform(.move(to: destination), onConflict: onConflict)
    }

    /// Moves `value` to `destination` in the current scope's tree of versions, in place, each
    /// step taken by `onConflict` (`nil`: ``conflictPolicy``).
    public func move(_ value: inout Value, to destination: HistoryDestination, onConflict: ConflictPolicy? = nil) throws(Failure) {
        try perform(.move(to: destination), on: &value, onConflict: onConflict)
    }

    /// Moves the tracked property of `root` to `destination`, each step taken by `onConflict`
    /// (`nil`: ``conflictPolicy``).
    public func move(root: inout Root, to destination: HistoryDestination, onConflict: ConflictPolicy? = nil) throws(Failure) {
        try perform(.move(to: destination), on: &root[keyPath: self.root.keyPath], onConflict: onConflict)
    }
}

extension VersioningController {

    // The original library's spellings: a tag of any type, passed as it is. Disfavored, so a
    // string literal or `.steps(n)` still reads as a `HistoryDestination`.

    /// Undoes to the version tagged `tag` (any `Hashable & Sendable` value, as `tag(_:)`
    /// takes): `undo(to: 2)` goes to the version tagged `2`. For a number of steps, write
    /// `undo(to: .steps(2))`.
    @_disfavoredOverload
    @discardableResult
    public func undo(to tag: some Hashable & Sendable) throws(Failure) -> Value {
        try undo(to: .tag(HistoryTag(tag)))
    }

    /// Undoes `value` to the version tagged `tag`, in place.
    @_disfavoredOverload
    public func undo(_ value: inout Value, to tag: some Hashable & Sendable) throws(Failure) {
        try undo(&value, to: .tag(HistoryTag(tag)))
    }

    /// Undoes the tracked property of `root` to the version tagged `tag`.
    @_disfavoredOverload
    public func undo(root: inout Root, to tag: some Hashable & Sendable) throws(Failure) {
        try undo(root: &root, to: .tag(HistoryTag(tag)))
    }

    /// Redoes up to and including the change that made the version tagged `tag`.
    @_disfavoredOverload
    @discardableResult
    public func redo(to tag: some Hashable & Sendable) throws(Failure) -> Value {
        try redo(to: .tag(HistoryTag(tag)))
    }

    /// Redoes `value` to the version tagged `tag`, in place.
    @_disfavoredOverload
    public func redo(_ value: inout Value, to tag: some Hashable & Sendable) throws(Failure) {
        try redo(&value, to: .tag(HistoryTag(tag)))
    }

    /// Redoes the tracked property of `root` to the version tagged `tag`.
    @_disfavoredOverload
    public func redo(root: inout Root, to tag: some Hashable & Sendable) throws(Failure) {
        try redo(root: &root, to: .tag(HistoryTag(tag)))
    }
}
