extension VersioningController {

    /// Changes the tracked value with `body` and records everything it did as one step of its
    /// own, undone by a single undo: it never joins a debounced burst. With a root object,
    /// writes the result to the root.
    ///
    /// - Returns: The new version.
    @discardableResult
    public func setWithTransaction<E: Error>(_ body: (inout Value) throws(E) -> Void) throws(E) -> Value {
        guard var value = trackedValue() else { return currentVersion }
        try body(&value)
        commit(value)
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
        guard var merged = trackedValue() else { return currentVersion }
        do {
            try changes.revert(&merged)
        } catch {
            change { $0.history.lastError = error }
            // This function throws the body's errors; an error key path still hears of it.
            try? reportError(root.object, error)
            return merged
        }
        commit(merged)
        return merged
    }
}

extension VersioningController {

    /// The tracked value: the root object's property, or the current version without an object
    /// root; `nil` once an object root is gone.
    func trackedValue() -> Value? {
        guard case .object = root else { return currentVersion }
        return root.object?[keyPath: root.keyPath]
    }

    /// Makes `value` the tracked value as one step of its own: changes the root made before
    /// are recorded first, then `value` is written to the root object, if there is one, and
    /// recorded alone.
    func commit(_ value: Value) {
        setTrackedValue(value) { history, policy in
            history.record(value, annotation: NoAnnotation(), grouping: .alone, policy: policy)
        }
    }
}
