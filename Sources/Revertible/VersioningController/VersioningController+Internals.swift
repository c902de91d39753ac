import Observation

extension VersioningController {

    /// Reads controller state, recording a pending change of an observed root first, and
    /// registers the read with Observation.
    func read<T>(_ body: (Storage) -> T) -> T {
        registrar.access(self, keyPath: observedStateKeyPath)
        return storage.withLock { storage in
            flushPendingChange(&storage)
            return body(storage)
        }
    }

    /// Changes controller state and tells observers.
    @discardableResult
    func change<T>(_ body: (inout Storage) -> T) -> T {
        let result = storage.withLock { storage in
            flushPendingChange(&storage)
            return body(&storage)
        }
        notifyObservers()
        return result
    }

    /// The key path observers of any of the controller's state register.
    var observedState: Void { () }

    func notifyObservers() {
        registrar.withMutation(of: self, keyPath: observedStateKeyPath) {}
    }

    /// Records the root's value if an observed change is waiting to be recorded.
    func flushPendingChange(_ storage: inout Storage) {
        guard let time = storage.pendingChange, let object = root.object else { return }
        if storage.willChangeDepth == 0 {
            storage.pendingChange = nil
        }
        record(object[keyPath: root.keyPath], tag: nil, at: time, in: &storage)
    }

    /// Records `value`; with debouncing, a change less than the interval after the previous
    /// one joins its step.
    func record(_ value: Value, tag: (any Hashable & Sendable)?, at time: Duration?, in storage: inout Storage) {
        guard let debounce = storage.debounce else {
            storage.history.record(value, tag: tag, annotation: NoAnnotation())
            return
        }
        let now = time ?? debounce.now()
        let isRecent = storage.lastChange.map { now - $0 < debounce.interval } ?? false
        if storage.history.record(value, tag: tag, annotation: NoAnnotation(), joiningGroup: isRecent, openingGroup: true) {
            storage.lastChange = now
        }
    }

    /// Runs a history operation on `value`, which the caller owns: records `value` first if it
    /// is not the current version (so nothing typed is lost), then operates in place on the
    /// history's current version, handed back in `value` (equal to what the caller had, and
    /// exactly the version the history's steps were made from).
    ///
    /// A failure is stored in ``error`` and reported the controller's way: thrown, or written
    /// to the root's error key path.
    /// - Returns: Whether the operation changed the value (`false` after a failure).
    @discardableResult
    func operate(
        on value: inout Value,
        _ operation: (inout History<Value, NoAnnotation>, inout Value) throws(ReversionError) -> Bool
    ) throws(Failure) -> Bool {
        let result: Result<Bool, ReversionError> = storage.withLock { storage in
            flushPendingChange(&storage)
            record(value, tag: nil, at: nil, in: &storage)
            value = storage.history.current
            do throws(ReversionError) {
                let result = try operation(&storage.history, &value)
                storage.error = nil
                return .success(result)
            } catch {
                storage.error = error
                return .failure(error)
            }
        }
        notifyObservers()
        switch result {
        case let .success(result):
            return result
        case let .failure(error):
            try reportError(root.object, error)
            return false
        }
    }

    /// Runs a history operation on the tracked value: the root object's property, written back
    /// afterwards, or else the controller's current version. Returns the resulting version.
    ///
    /// Once an object root is gone, does nothing.
    @discardableResult
    func operateOnTrackedValue(
        _ operation: (inout History<Value, NoAnnotation>, inout Value) throws(ReversionError) -> Bool
    ) throws(Failure) -> Value {
        if case let .object(reference, keyPath) = root {
            guard let object = reference.object as? Root else { return currentVersion }
            var value = object[keyPath: keyPath]
            if try operate(on: &value, operation) {
                writeRoot(value, to: object, at: keyPath)
            }
            return value
        }
        var value = storage.withLock { $0.history.current }
        try operate(on: &value, operation)
        return value
    }

    /// Writes the root's property without recording the write as a change.
    func writeRoot(_ value: Value, to object: Root, at keyPath: ReferenceWritableKeyPath<Root, Value>) {
        storage.withLock { $0.isWritingRoot = true }
        object[keyPath: keyPath] = value
        storage.withLock { $0.isWritingRoot = false }
    }
}
