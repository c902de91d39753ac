extension History {

    /// Undoes the newest step of the current scope on `value`, the current version, in place.
    ///
    /// - Returns: `false`, changing nothing, when there is nothing to undo.
    /// - Throws: ``ReversionError`` if `value` is not the current version where the step
    ///   writes; the history and `value` are then unchanged.
    @discardableResult
    package mutating func undo(_ value: inout Value) throws(ReversionError) -> Bool {
        try move(&value, .backward)
    }

    /// Redoes the next step of the current scope on `value`, the current version, in place.
    ///
    /// - Returns: `false`, changing nothing, when there is nothing to redo.
    @discardableResult
    package mutating func redo(_ value: inout Value) throws(ReversionError) -> Bool {
        try move(&value, .forward)
    }

    /// Undoes up to `count` steps; stops early when the scope runs out.
    ///
    /// All or nothing, like a single step: if a step fails, the steps already undone are redone
    /// before the error is thrown, so the history and `value` are unchanged.
    ///
    /// - Returns: How many steps were undone.
    @discardableResult
    package mutating func undo(_ value: inout Value, steps count: Int) throws(ReversionError) -> Int {
        try move(&value, .backward, steps: count)
    }

    /// Redoes up to `count` steps; stops early when the scope runs out.
    ///
    /// All or nothing: if a step fails, the steps already redone are undone again before the
    /// error is thrown.
    ///
    /// - Returns: How many steps were redone.
    @discardableResult
    package mutating func redo(_ value: inout Value, steps count: Int) throws(ReversionError) -> Int {
        try move(&value, .forward, steps: count)
    }

    /// Moves one step: backward takes the newest undo step onto the redo stack, forward the
    /// next redo step back onto the undo stack, applying its reversion in that direction.
    private mutating func move(_ value: inout Value, _ direction: ReversionDirection) throws(ReversionError) -> Bool {
        endGroup()
        guard let step = scopes[top].nextStep(direction) else { return false }
        let reversion = direction == .backward ? step.reversion : step.reversion.inverted
        try withReferenceReleased(&value) { (value) throws(ReversionError) in try reversion.revert(&value) }
        scopes[top].passNextStep(direction)
        return true
    }

    /// Moves up to `count` steps, all or nothing: on a failure, the steps already taken are
    /// taken back (each was just applied to exactly this value, so the reverse applies).
    private mutating func move(_ value: inout Value, _ direction: ReversionDirection, steps count: Int) throws(ReversionError) -> Int {
        endGroup()
        var done = 0
        do {
            while done < count, try move(&value, direction) { done += 1 }
        } catch {
            for _ in 0..<done { _ = try? move(&value, direction.reversed) }
            throw error
        }
        return done
    }
}

extension HistoryScope {

    /// The step a move in `direction` takes: the newest undo step going backward, the next
    /// redo step going forward.
    func nextStep(_ direction: ReversionDirection) -> HistoryStep<Value, Annotation>? {
        direction == .backward ? undo.last : redo.last
    }

    /// Moves that step to the other stack.
    mutating func passNextStep(_ direction: ReversionDirection) {
        if direction == .backward {
            redo.append(undo.removeLast())
        } else {
            undo.append(redo.removeLast())
        }
    }
}
