/// Everything a history can be asked to do besides recording: the one list that the
/// controller's methods and the undoable reducer's actions both map to.
package enum HistoryCommand: Sendable {
    case undo(HistoryTarget)
    case redo(HistoryTarget)
    case move(HistoryDestination)
    case undoCurrentScope
    case redoCurrentScope
    case tag(HistoryTag)
    case pushNewScope
    case popCurrentScope
    case undoAndPopCurrentScope
    case removeAllVersions
    /// Ends the open group early; ``perform(_:on:policy:)`` ends it before any command.
    case stopGrouping
    /// Removes the step undo would take, keeping the value (see ``History/dropNextUndo()``).
    case dropNextUndo
}

extension History {

    /// Runs `command` on `value`, in place, closing any open group first and trimming to
    /// `policy`'s limit afterwards. `value` must hold the current version's exact bytes (the
    /// caller has just read ``current`` into it); the history releases its own copy while the
    /// command writes, so `value`'s storage is unique and changes in place, at the cost of
    /// the change. Success clears ``lastError``; a refusal sets it and changes nothing.
    ///
    /// - Returns: Whether the current version changed, or why the command was refused.
    ///
    /// - Parameter onConflict: What the command's moves do where another writer changed a
    ///   location a step wrote; `nil` takes `policy`'s. ``lastConflicts`` lists what they found.
    @discardableResult
    package mutating func perform(
        _ command: HistoryCommand, on value: inout Value, policy: HistoryPolicy, onConflict: ConflictPolicy? = nil
    ) -> Result<Bool, HistoryError> {
        endGroup()
        conflictPolicy = onConflict ?? policy.conflictPolicy
        lastConflicts = []
        reference = nil
        let result: Result<Bool, HistoryError>
        do {
            result = .success(try run(command, on: &value))
            lastError = nil
        } catch {
            result = .failure(error)
            lastError = error
        }
        reference = value
        trim(to: policy.limit)
        return result
    }

    /// Runs `command` on the history's own copy of the current version.
    @discardableResult
    package mutating func perform(
        _ command: HistoryCommand, policy: HistoryPolicy, onConflict: ConflictPolicy? = nil
    ) -> Result<Bool, HistoryError> {
        var value = reference.take()!
        return perform(command, on: &value, policy: policy, onConflict: onConflict)
    }

    private mutating func run(_ command: HistoryCommand, on value: inout Value) throws(HistoryError) -> Bool {
        switch command {
        case let .undo(target):
            return try undo(&value, to: target) > 0
        case let .redo(target):
            return try redo(&value, to: target) > 0
        case let .move(destination):
            return try move(&value, to: destination) > 0
        case .undoCurrentScope:
            return try undo(&value, to: .steps(undoCount)) > 0
        case .redoCurrentScope:
            return try redo(&value, to: .steps(redoCount)) > 0
        case let .tag(tag):
            self.tag(tag)
        case .pushNewScope:
            pushNewScope()
        case .popCurrentScope:
            try popCurrentScope(&value)
        case .undoAndPopCurrentScope:
            return try undoAndPopCurrentScope(&value)
        case .removeAllVersions:
            removeAllVersions()
        case .stopGrouping:
            break
        case .dropNextUndo:
            dropNextUndo()
        }
        return false
    }
}
