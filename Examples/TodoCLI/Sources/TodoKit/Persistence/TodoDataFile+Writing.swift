import Foundation
import UndoableReducer

// Writing: a command run on the file's state in one write transaction, and what it changed written.
extension TodoDataFile {

    /// Runs `change` on a store holding the file's current state, in a write transaction,
    /// and writes what it changed. If `change` throws, nothing is written; if it changes
    /// nothing, a file that does not exist is not created.
    ///
    /// With `nearTheEnds`, the caller says the command reads and writes only items near the
    /// ends of the list (`add`, and usually `undo`, `redo` and `tag`): in a process that runs
    /// one command, the list is then read only at its ends (see ``ItemRows/loadEnds(from:rows:)``),
    /// and read whole, the command run again, if it turns out to need more.
    ///
    /// The write is on disk before this returns, so a confirmation printed afterwards is
    /// never a lie.
    ///
    /// With `appliesSavedSteps`, the caller says the command may move through the history
    /// (undo, redo, goto, rollback), applying saved steps to the list: if it did, the result
    /// is checked to load again before it is written (see
    /// ``HistoryMismatch/checkLoadable(_:)``), so that an item another program
    /// edited never makes `todo` write a file it then refuses.
    public func modify<Result>(
        nearTheEnds: Bool = false,
        appliesSavedSteps: Bool = false,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result {
        let existing = try reported { () throws(DataFileProblem) in
            try open(forWriting: true)
        }
        var prepared: Prepared<Result>?
        if existing == nil {
            // No file yet: the command runs on an empty list before the file is made, so that
            // one that fails or changes nothing ("undo", "done 1") leaves no file and no
            // directory behind. What it did is written as it is (not run again) unless
            // another process wrote to the new file first.
            let empty = UndoableState(TodoList())
            let store = TodoStore(initialState: empty, reducer: reducer)
            let result = try change(store)
            if store.state == empty { return result }
            prepared = Prepared(start: empty, store: store, result: result)
        }
        let database = try reported { () throws(DataFileProblem) in
            if let existing { return existing }
            return try create()
        }
        do {
            let result = try database.transaction(immediate: true) {
                // At most two attempts, each running the command once: on the ends of the
                // list, then, only if those were not enough, on the whole list (the first
                // attempt's result is dropped unseen, and it wrote nothing).
                if prepared == nil, nearTheEnds, singleCommand, cache == nil, try TodoSchema.check(database) == TodoSchema.version,
                   let result = try writeNearTheEnds(database, appliesSavedSteps: appliesSavedSteps, change) {
                    return result
                }
                return try writeTransaction(database, appliesSavedSteps: appliesSavedSteps, prepared: prepared, change)
            }
            try settleJournal(database)
            if checked, !vacuumConversionTried {
                // Every page was just checked, and the file had free pages: the moment to
                // convert a file an earlier `todo` made (see `FreePages`).
                vacuumConversionTried = true
                FreePages.convertIfNeeded(database)
            }
            return result
        } catch let error as TodoError {
            throw error
        } catch let problem as DataFileProblem {
            cache = nil
            throw .dataFile(path, problem)
        } catch let error as DatabaseError {
            cache = nil
            throw .dataFile(path, locked(error) ?? DataFileProblem(error))
        } catch {
            cache = nil
            throw .dataFile(path, .database(operation: "write the change", reason: String(describing: error)))
        }
    }

    /// The body of ``modify(nearTheEnds:appliesSavedSteps:_:)``'s transaction: the whole list and history
    /// read (or taken from the cache), `change` run on them, what changed written.
    func writeTransaction<Result>(
        _ database: Database,
        appliesSavedSteps: Bool,
        prepared: Prepared<Result>?,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws -> Result {
        try checkPagesOnce(database)
        try TodoSchema.prepare(database)
        initialized = true
        let before = try load(database)
        let store: TodoStore
        let result: Result
        if let prepared, prepared.start == before.state, prepared.start.currentVersionID == before.state.currentVersionID {
            (store, result) = (prepared.store, prepared.result)
        } else {
            // A second attempt when another process wrote the new file first: the command
            // runs again on what it wrote, and the first result is dropped unseen.
            store = TodoStore(initialState: before.state, reducer: reducer)
            do {
                result = try change(store)
            } catch {
                // A step read when the command crossed it was damaged: the file's problem,
                // not the command's.
                if case let .unreadableStep(_, damage)? = store.state.error {
                    throw DataFileProblem.damaged(HistoryMismatch.readable(damage.message))
                }
                throw error
            }
        }
        var after = store.state
        // A read outside the command (a count, the steps it names) answers a step that failed
        // as absent: the state would be written as if it were not there.
        if case let .unreadableStep(_, damage)? = after.historyReadFailure {
            throw DataFileProblem.damaged(HistoryMismatch.readable(damage.message))
        }
        if appliesSavedSteps, after.currentVersionID != before.state.currentVersionID {
            try HistoryMismatch.checkLoadable(after)
        }
        // A failed history command changes nothing; `change` reports it.
        let items = ItemChanges(before: before.state.present.items, beforeKeys: before.keys, after: after.present.items)
        try ItemRows.write(items, of: after.present, to: database)
        try before.history.save(&after)
        try clearOpenScopeMark(database, after: after)
        try FreePages.reclaim(database)
        cache = Loaded(state: after, keys: items.keys, history: before.history, dataVersion: before.dataVersion)
        return result
    }
}
