extension History {

    /// Undoes the newest step of the current scope on `value`, the current version, in place.
    ///
    /// - Returns: `false`, changing nothing, when there is nothing to undo.
    /// - Throws: ``ReversionError`` if `value` is not the current version where the step
    ///   writes; the history and `value` are then unchanged.
    @discardableResult
    package mutating func undo(_ value: inout Value) throws(ReversionError) -> Bool {
        endGroup()
        guard let step = scopes[top].undo.last else { return false }
        try withReferenceReleased(&value) { (value) throws(ReversionError) in try step.reversion.revert(&value) }
        scopes[top].undo.removeLast()
        scopes[top].redo.append(step)
        return true
    }

    /// Redoes the next step of the current scope on `value`, the current version, in place.
    ///
    /// - Returns: `false`, changing nothing, when there is nothing to redo.
    @discardableResult
    package mutating func redo(_ value: inout Value) throws(ReversionError) -> Bool {
        endGroup()
        guard let step = scopes[top].redo.last else { return false }
        try withReferenceReleased(&value) { (value) throws(ReversionError) in try step.reversion.inverted.revert(&value) }
        scopes[top].redo.removeLast()
        scopes[top].undo.append(step)
        return true
    }

    /// Undoes up to `count` steps; stops early when the scope runs out.
    ///
    /// All or nothing, like a single step: if a step fails, the steps already undone are redone
    /// before the error is thrown, so the history and `value` are unchanged.
    ///
    /// - Returns: How many steps were undone.
    @discardableResult
    package mutating func undo(_ value: inout Value, steps count: Int) throws(ReversionError) -> Int {
        endGroup()
        var done = 0
        do {
            while done < count, try undo(&value) { done += 1 }
        } catch {
            // Each of these was just undone on exactly this value, so redoing it applies.
            for _ in 0..<done { _ = try? redo(&value) }
            throw error
        }
        return done
    }

    /// Redoes up to `count` steps; stops early when the scope runs out.
    ///
    /// All or nothing: if a step fails, the steps already redone are undone again before the
    /// error is thrown.
    ///
    /// - Returns: How many steps were redone.
    @discardableResult
    package mutating func redo(_ value: inout Value, steps count: Int) throws(ReversionError) -> Int {
        endGroup()
        var done = 0
        do {
            while done < count, try redo(&value) { done += 1 }
        } catch {
            for _ in 0..<done { _ = try? undo(&value) }
            throw error
        }
        return done
    }
}
