extension VersioningController {

    /// Changes the tracked value with `body` and records everything it did as one step, undone
    /// by a single ``undo()``. With a root object, writes the result to the root.
    ///
    /// - Returns: The new version.
    @discardableResult
    public func setWithTransaction<E: Error>(_ body: (inout Value) throws(E) -> Void) throws(E) -> Value {
        if case let .object(reference, keyPath) = root {
            guard let object = reference.object as? Root else { return currentVersion }
            var value = object[keyPath: keyPath]
            try body(&value)
            object[keyPath: keyPath] = value
            append(value)
            return value
        }
        var value = currentVersion
        try body(&value)
        append(value)
        return value
    }

    /// Changes the tracked value with an asynchronous `body` and records everything it did as
    /// one step.
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
        _ body: (inout Value) async throws(E) -> Void
    ) async throws(E) -> Value {
        let start: Value
        if case let .object(reference, keyPath) = root, let object = reference.object as? Root {
            start = object[keyPath: keyPath]
        } else {
            start = currentVersion
        }
        var value = start
        try await body(&value)
        // Turns the starting version into `value`; applied to a root that moved on meanwhile, it
        // checks and writes only the locations the transaction changed.
        guard let changes = start.reversion(to: value) else { return value }
        if case let .object(reference, keyPath) = root {
            guard let object = reference.object as? Root else { return currentVersion }
            var merged = object[keyPath: keyPath]
            do {
                try changes.revert(&merged)
            } catch {
                change { $0.error = error }
                return merged
            }
            object[keyPath: keyPath] = merged
            append(merged)
            return merged
        }
        var merged = currentVersion
        do {
            try changes.revert(&merged)
        } catch {
            change { $0.error = error }
            return merged
        }
        append(merged)
        return merged
    }
}
