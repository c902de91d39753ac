import Observation

extension VersioningController {

    /// Reads controller state, recording a pending change of an observed root first, and
    /// registers the read with Observation.
    @inlinable
    func read<T>(_ body: (Storage) -> T) -> T {
        registrar.access(self, keyPath: observedStateKeyPath)
        return storage.withLockUnchecked { storage in
            flushPendingChange(&storage)
            return body(storage)
        }
    }

    /// Changes controller state and tells observers.
    @inlinable @discardableResult
    func change<T>(_ body: (inout Storage) -> T) -> T {
        let result = storage.withLockUnchecked { storage in
            flushPendingChange(&storage)
            return body(&storage)
        }
        notifyObservers()
        return result
    }

    /// The key path observers of any of the controller's state register.
    var observedState: Void { () }

    @inlinable
    func notifyObservers() {
        registrar.withMutation(of: self, keyPath: observedStateKeyPath) {}
    }

    /// Records the root's value if an observed change is waiting to be recorded.
    @inlinable
    func flushPendingChange(_ storage: inout Storage) {
        guard let time = storage.pendingChange, let object = root.object else { return }
        if storage.willChangeDepth == 0 {
            storage.pendingChange = nil
        }
        record(object[keyPath: root.keyPath], at: time, in: &storage)
    }

    /// Records `value` as a change made at `time` (now, by default); under a debounce
    /// interval, it joins the burst before it.
    @inlinable
    func record(_ value: Value, at time: Duration? = nil, in storage: inout Storage) {
        storage.history.record(value, annotation: NoAnnotation(), grouping: .grouped(at: time), policy: storage.policy)
    }

    /// Runs `command` on `value`, which the caller owns: records `value` first if it is not
    /// the current version (so nothing typed is lost), then runs the command on the history's
    /// current version and hands the result back in `value` (equal to what the caller had,
    /// and exactly the version the history's steps were made from).
    ///
    /// A refusal is kept in ``error`` and reported the controller's way: thrown, or stored.
    /// - Returns: Whether the command changed the value (`false` after a refusal).
    @inlinable @discardableResult
    func perform(_ command: HistoryCommand, on value: inout Value, onConflict: ConflictPolicy? = nil) throws(Failure) -> Bool {
        let result = storage.withLockUnchecked { storage in
            flushPendingChange(&storage)
            record(value, in: &storage)
            value = storage.history.current
            return storage.history.perform(command, on: &value, policy: storage.policy, onConflict: onConflict)
        }
        notifyObservers()
        switch result {
        case let .success(changed):
            return changed
        case let .failure(error):
            try reportError(root.object, error)
            return false
        }
    }

    /// Runs `command` on the tracked value: the root object's property, written back
    /// afterwards, or else the controller's current version. Returns the resulting version.
    ///
    /// Once an object root is gone, does nothing.
    @inlinable @discardableResult
    func perform(_ command: HistoryCommand, onConflict: ConflictPolicy? = nil) throws(Failure) -> Value {
        guard case .object = root else {
            var value = currentVersion
            try perform(command, on: &value, onConflict: onConflict)
            return value
        }
        guard let object = root.object else { return currentVersion }
        var value = object[keyPath: root.keyPath]
        if try perform(command, on: &value, onConflict: onConflict) {
            writeRoot(value, to: object)
        }
        return value
    }

    /// Makes `value` the tracked value, recorded by `record`: changes the root made before
    /// are recorded first, as their own steps; then `value` is written to the root object, if
    /// there is one, without the root's observation recording the write.
    @inlinable
    func setTrackedValue(_ value: Value, recording record: (inout History<Value, NoAnnotation>, HistoryPolicy) -> Void) {
        storage.withLockUnchecked { flushPendingChange(&$0) }
        if let object = root.object {
            writeRoot(value, to: object)
        }
        change { record(&$0.history, $0.policy) }
    }

    /// Writes the root's property without recording the write as a change.
    @usableFromInline
    func writeRoot(_ value: Value, to object: Root) {
        guard case let .object(_, keyPath, _) = root else { return }
        storage.withLockUnchecked { $0.isWritingRoot = true }
        object[keyPath: keyPath] = value
        storage.withLockUnchecked { $0.isWritingRoot = false }
    }
}
