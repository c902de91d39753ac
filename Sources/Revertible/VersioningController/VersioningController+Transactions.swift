extension VersioningController {

    /// Changes the tracked value with `body` and records everything it did as one step of its
    /// own, undone by a single undo: it never joins a debounced burst. With a root object,
    /// writes the result to the root.
    ///
    /// A transaction is one read-modify-write: `body` gets the current version and no other
    /// change can come between that read and the recording of its result, so transactions
    /// from many tasks at once lose none of each other's changes. `body` therefore runs while
    /// the controller is held, and must not use the controller (no `append`, no `undo`, not
    /// even `currentVersion`): that would wait for itself forever. If `body` throws, nothing
    /// is recorded. With a root object, the controller belongs to one actor, which already
    /// keeps other writers out.
    ///
    /// - Returns: The new version.
    @inlinable @discardableResult
    public func setWithTransaction<E: Error>(_ body: (inout Value) throws(E) -> Void) throws(E) -> Value {
        try runTransaction(body) { (history, policy) throws(E) in
            try history.recordTransaction(annotation: NoAnnotation(), policy: policy, body)
        }
    }

    /// Runs a synchronous transaction: `body` on the root object's value, recorded after, or,
    /// without an object root, `recording` under the lock, which runs `body` on the history's
    /// current version and records the result.
    @inlinable
    func runTransaction<E: Error>(
        _ body: (inout Value) throws(E) -> Void,
        recording: (inout History<Value, NoAnnotation>, HistoryPolicy) throws(E) -> Value
    ) throws(E) -> Value {
        guard case .value = root else {
            // The root's observation reports the write synchronously and takes the lock, so
            // an object root is written outside it; its actor is what keeps writers apart.
            guard var value = trackedValue() else { return currentVersion }
            try body(&value)
            commit(value)
            return value
        }
        let value = try storage.withLockUnchecked { (storage) throws(E) -> Value in
            flushPendingChange(&storage)
            return try recording(&storage.history, storage.policy)
        }
        notifyObservers()
        return value
    }

    /// Changes the tracked value with an asynchronous `body` and records everything it did as
    /// one step of its own.
    ///
    /// `body` works on a copy, as `inout` across a suspension does. If the root object's
    /// property was changed by someone else meanwhile, the transaction's own changes are
    /// applied on top of theirs rather than overwriting them; if both changed the same
    /// location, the transaction is dropped and ``error`` says so.
    ///
    /// - Returns: The new version.
    @discardableResult
    public func setWithTransaction<E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: nonisolated(nonsending) (inout Value) async throws(E) -> Void
    ) async throws(E) -> Value {
        guard let start = trackedValue() else { return currentVersion }
        var value = start
        try await body(&value)
        // Turns the starting version into `value`; applied to a root that moved on meanwhile, it
        // checks and writes only the locations the transaction changed.
        guard let changes = start.reversion(to: value) else { return value }
        guard case .value = root else {
            guard var merged = trackedValue() else { return currentVersion }
            do {
                try changes.revert(&merged)
            } catch {
                refuseTransaction(.stepRefused(error))
                return merged
            }
            commit(merged)
            return merged
        }
        // The merge and the recording are one step under the lock: a writer that comes between
        // them would otherwise be overwritten.
        let result = storage.withLockUnchecked { storage -> Result<Value, HistoryError> in
            flushPendingChange(&storage)
            var merged = storage.history.current
            do throws(ReversionError) {
                try changes.revert(&merged)
            } catch {
                return .failure(.stepRefused(error))
            }
            storage.history.record(merged, annotation: NoAnnotation(), grouping: .alone, policy: storage.policy)
            return .success(merged)
        }
        switch result {
        case let .success(merged):
            notifyObservers()
            return merged
        case let .failure(error):
            refuseTransaction(error)
            return currentVersion
        }
    }

    /// Keeps the refusal of an asynchronous transaction in ``error``.
    private func refuseTransaction(_ error: HistoryError) {
        change { $0.history.lastError = error }
        // This function throws the body's errors; an error key path still hears of it.
        try? reportError(root.object, error)
    }
}

extension VersioningController where Value: Versionable {

    /// Changes the tracked value with `body` and records everything it did as one step of its
    /// own, as ``setWithTransaction(_:)-2pgjd`` does; for a `Versionable`
    /// value, without an object root, the value's `TreeArray`s (those it registers at stored
    /// properties) are lent to `body`: its writes to them are made in place, with no copy of
    /// the chunks they touch, and the step is what the trees saw, not a comparison (see
    /// "Large lists and long text" for which writes are recorded so).
    ///
    /// - Returns: The new version.
    @inlinable @discardableResult
    public func setWithTransaction<E: Error>(_ body: (inout Value) throws(E) -> Void) throws(E) -> Value {
        try runTransaction(body) { (history, policy) throws(E) in
            try history.recordTransaction(annotation: NoAnnotation(), policy: policy, body)
        }
    }
}

extension VersioningController {

    /// The tracked value: the root object's property, or the current version without an object
    /// root; `nil` once an object root is gone.
    @inlinable
    func trackedValue() -> Value? {
        guard case .object = root else { return currentVersion }
        return root.object?[keyPath: root.keyPath]
    }

    /// Makes `value` the tracked value as one step of its own: changes the root made before
    /// are recorded first, then `value` is written to the root object, if there is one, and
    /// recorded alone.
    @inlinable
    func commit(_ value: Value) {
        setTrackedValue(value) { history, policy in
            history.record(value, annotation: NoAnnotation(), grouping: .alone, policy: policy)
        }
    }
}
