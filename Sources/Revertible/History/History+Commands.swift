/// A command to a history: everything a history can be asked to do besides recording a
/// change. ``VersioningController``'s methods and the undoable reducer's actions
/// (`UndoableAction.history(_:)`) both run these, so the two read and behave alike.
///
/// ```swift
/// store.send(.undo)                      // UndoableAction's shorthand for .history(.undo(to: .steps(1)))
/// store.send(.history(.undo(to: "saved")))
/// ```
public enum HistoryCommand: Hashable, Sendable, Codable {
    /// Undoes to `target` in the current scope: a number of steps, or a tagged version.
    case undo(to: HistoryDestination)
    /// Redoes to `target` in the current scope, up to and including a tagged version.
    case redo(to: HistoryDestination)
    /// Takes back the newest step of this author that is not taken back yet, leaving every
    /// other author's later steps in place: selectively, under the conflict policy, and
    /// recorded as a new step by the author (plain undo takes it back like any other). A
    /// step whose every location others have changed since is passed over for the next
    /// older one.
    ///
    /// `UndoableAction` and `VersioningController` spell it `undo(by:)`; the case is named
    /// apart because Swift cannot yet match cases that share a base name.
    case undoByAuthor(HistoryAuthor)
    /// Takes back the newest ``undoByAuthor(_:)`` of this author that is not taken back yet,
    /// as a new step by the author, unless the author recorded an ordinary step since.
    case redoByAuthor(HistoryAuthor)
    /// Moves to `destination` in the current scope's tree of versions, whichever branch it
    /// is on.
    case move(to: HistoryDestination)
    /// Undoes every step of the current scope, staying in it.
    case undoCurrentScope
    /// Redoes every step of the current scope.
    case redoCurrentScope
    /// Names the present; a tag names one version, so tagging another moves it.
    case tag(HistoryTag)
    /// Starts a scope on the present: undo and redo stay inside it until it is popped.
    case pushNewScope
    /// Ends the current scope, squashing its steps into one step on the scope below.
    case popCurrentScope
    /// Abandons the current scope: undoes its steps and removes it; the tags it moved go
    /// back to the versions they named before.
    case undoAndPopCurrentScope
    /// Forgets every step, tag and scope; the present stays.
    case removeAllVersions
    /// Ends the open group: the next recorded change starts a new step, even with the same
    /// grouping key or inside the grouping interval (Yjs's `stopCapturing`).
    case stopGrouping
    /// Removes the step undo would take, keeping the value: its change stays, as if another
    /// writer had made it (for a step a refusal left in place that is not to be undone).
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
    @inlinable @discardableResult
    package mutating func perform(
        _ command: HistoryCommand, on value: inout Value, policy: HistoryPolicy, onConflict: ConflictPolicy? = nil
    ) -> Result<Bool, HistoryError> {
        defer { checkInvariantsInDebugBuilds() }
        endGroup()
        conflictPolicy = onConflict ?? policy.conflictPolicy
        lastConflicts = []
        // Over a store, a step that fails to read makes the whole command change nothing.
        let backup = backupIfStored()
        reference = nil
        let result: Result<Bool, HistoryError>
        do {
            result = .success(try run(command, on: &value, policy: policy))
            lastError = nil
        } catch {
            result = .failure(error)
            lastError = error
        }
        reference = value
        trim(to: policy.limit)
        if let backup, readFailures > backup.failures {
            self = backup.history
            value = backup.history.current
            lastError = lastReadFailure
            return .failure(lastReadFailure)
        }
        return result
    }

    /// A copy of this history and its read failures so far, if it reads from a store: what a
    /// command that cannot read a step goes back to. `nil` in memory, where nothing is copied.
    @usableFromInline
    func backupIfStored() -> (history: History, failures: Int)? {
        storage.map { (self, $0.source.failureCount) }
    }

    /// Runs `command` on the history's own copy of the current version.
    @usableFromInline @discardableResult
    package mutating func perform(
        _ command: HistoryCommand, policy: HistoryPolicy, onConflict: ConflictPolicy? = nil
    ) -> Result<Bool, HistoryError> {
        var value = reference.take()!
        return perform(command, on: &value, policy: policy, onConflict: onConflict)
    }

    @inlinable
    mutating func run(_ command: HistoryCommand, on value: inout Value, policy: HistoryPolicy) throws(HistoryError) -> Bool {
        switch command {
        case let .undo(target):
            return try undo(&value, to: target) > 0
        case let .redo(target):
            return try redo(&value, to: target) > 0
        case let .undoByAuthor(author):
            return try move(by: author, .backward, on: &value, policy: policy)
        case let .redoByAuthor(author):
            return try move(by: author, .forward, on: &value, policy: policy)
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
