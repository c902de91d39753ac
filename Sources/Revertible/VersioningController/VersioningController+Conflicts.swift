extension VersioningController {

    /// What undo, redo and moves through the tree do where another writer changed a location
    /// a step wrote, unless a call says otherwise: ``ConflictPolicy/skip`` by default (the
    /// other writer's value stays, the rest of the step is undone, and undo never jams).
    public var conflictPolicy: ConflictPolicy {
        get { read { $0.policy.conflictPolicy } }
        set { change { $0.policy.conflictPolicy = newValue } }
    }

    /// Removes the step undo would take, keeping the current version as it is: its change
    /// stays, as if another writer had made it, and the steps before it become reachable.
    /// For a step that undo refused (``ConflictPolicy/refuse``) and that is not to be undone.
    /// The steps redo would take after it stay. Does nothing at the oldest version of the
    /// current scope.
    public func dropNextUndo() {
        _ = try? perform(.dropNextUndo)
    }

    /// Makes `value` the current version without recording a step: a change from another
    /// writer (a sync, a database, an effect). With a root object, writes `value` to the
    /// root. Undo and redo leave it in place where it conflicts with their steps (see
    /// ``conflictPolicy``), and the next step appended holds only its own change.
    ///
    /// The same as ``setWithoutTracking(_:)``, named for what it means to the history.
    public func absorb(_ value: Value) {
        setWithoutTracking(value)
    }

    /// Changes the current version with `body` without recording a step, as one
    /// read-modify-write: for a sync writer that applies a remote change to what is there
    /// now. Reading ``currentVersion`` and then calling ``absorb(_:)->()`` would lose a
    /// transaction that lands between the two; here, as in ``setWithTransaction(_:)-2pgjd``, no
    /// other change comes between `body`'s read and the absorbing of its result. `body`
    /// therefore runs while the controller is held and must not use the controller. If
    /// `body` throws, nothing changes. With a root object, writes the result to the root.
    ///
    /// - Returns: The new version.
    @discardableResult
    public func absorb<E: Error>(_ body: (inout Value) throws(E) -> Void) throws(E) -> Value {
        guard case .value = root else {
            // As in a transaction: the root's observation takes the lock, so an object root
            // is written outside it, and its actor keeps writers apart.
            guard var value = trackedValue() else { return currentVersion }
            try body(&value)
            absorb(value)
            return value
        }
        let value = try storage.withLockUnchecked { (storage) throws(E) -> Value in
            flushPendingChange(&storage)
            var value = storage.history.current
            try body(&value)
            storage.history.recordWithoutTracking(value)
            return value
        }
        notifyObservers()
        return value
    }
}
