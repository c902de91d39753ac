extension History {

    /// Starts a new scope on the current version. Undo and redo stay inside it until it is
    /// popped.
    package mutating func pushScope() {
        endGroup()
        scopes.append(HistoryScope())
    }

    /// Ends the current scope, squashing its steps into one step on the scope below, undone
    /// by a single undo. The squashed step is one fresh comparison between the scope's base
    /// version and the current one, so changes that cancelled out take no space. Its tag is
    /// the tag of the version the scope ended on.
    ///
    /// - Returns: `false`, changing nothing, at the outermost scope.
    @discardableResult
    package mutating func popScope() throws(ReversionError) -> Bool {
        guard top > 0 else { return false }
        endGroup()
        let scope = scopes[top]
        var base = current
        for step in scope.undo.reversed() {
            try step.reversion.revert(&base)
        }
        scopes.removeLast()
        let endTag = scope.undo.last?.tagBox ?? scope.baseTagBox
        guard let reversion = current.reversion(to: base) else {
            if let endTag { tagCurrentVersion(box: endTag) }
            return true
        }
        let annotation = scope.undo.dropFirst().reduce(scope.undo[0].annotation) { $0.merged(with: $1.annotation) }
        var step = HistoryStep(reversion: reversion, annotation: annotation)
        step.tagBox = endTag
        push(step)
        return true
    }

    /// Undoes every step of the current scope, staying in it.
    ///
    /// - Returns: How many steps were undone.
    @discardableResult
    package mutating func undoScope(_ value: inout Value) throws(ReversionError) -> Int {
        try undo(&value, steps: undoCount)
    }

    /// Redoes every step of the current scope.
    ///
    /// - Returns: How many steps were redone.
    @discardableResult
    package mutating func redoScope(_ value: inout Value) throws(ReversionError) -> Int {
        try redo(&value, steps: redoCount)
    }

    /// Abandons the current scope: undoes all of its steps, then removes it with its redo
    /// steps.
    ///
    /// - Returns: `false`, changing nothing, at the outermost scope.
    @discardableResult
    package mutating func discardScope(_ value: inout Value) throws(ReversionError) -> Bool {
        guard top > 0 else { return false }
        try undoScope(&value)
        scopes.removeLast()
        return true
    }
}
