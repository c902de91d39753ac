import Foundation
import UndoableReducer

// A command near the ends of a long list: the list read at its ends only.
extension TodoDataFile {

    /// How many items at each end of the list ``writeNearTheEnds(_:appliesSavedSteps:_:)`` reads: commands on
    /// the last (or first) few hundred items, and undoing them, stay on the fast path.
    static let endRows = 256

    /// The body of ``modify(nearTheEnds:appliesSavedSteps:_:)``'s transaction for a command near the ends of
    /// the list: the list read at its ends only, `change` run, and what changed written if it
    /// touched real items only. `nil`, having written nothing, when the list is short (it is
    /// read whole anyway), or when the command read, wrote or saved in its history step an
    /// item that was not read: the caller then runs it on the whole list, which also reports
    /// any error the command or the file has.
    ///
    /// `PRAGMA quick_check` is skipped here while the file has no free pages: SQLite checks
    /// each page it reads (with `cell_size_check`), and a write into a file without free pages
    /// changes only pages it has read and appends new ones, so damage elsewhere in the file
    /// is neither trusted nor spread. A free page, though, may be handed out without being
    /// read, so a file with any is checked whole first, as on the other path; a write that
    /// frees pages gives them back before it commits (``FreePages``), so the next command
    /// finds none.
    func writeNearTheEnds<Result>(
        _ database: Database,
        appliesSavedSteps: Bool,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws -> Result? {
        guard let ends = try ItemRows.loadEnds(from: database, rows: Self.endRows) else { return nil }
        let history = try HistoryRows.open(in: database)
        guard let before = try? history.state(present: ends.list) else { return nil }
        let store = TodoStore(initialState: before, reducer: reducer)
        guard let result = try? change(store), store.state.error == nil else { return nil }
        let after = store.state
        // Reported, with the damage named, on the whole list.
        guard after.historyReadFailure == nil else { return nil }
        // Checked, and reported, on the whole list.
        if appliesSavedSteps, after.currentVersionID != before.currentVersionID,
           (try? HistoryMismatch.checkLoadable(after)) == nil {
            return nil
        }
        let items = ItemChanges(before: before.present.items, beforeKeys: ends.keys, after: after.present.items)
        guard ends.placeholders.allowWriting(items, in: after.present.items) else { return nil }
        let steps = try history.encode(after.unsavedHistoryChanges)
        guard !steps.documents.contains(where: ends.placeholders.appears) else { return nil }
        if try database.integer("PRAGMA freelist_count") != 0 {
            try checkPagesOnce(database)
        }
        initialized = true
        try ItemRows.write(items, of: after.present, to: database)
        try history.write(steps)
        try clearOpenScopeMark(database, after: after)
        try FreePages.reclaim(database)
        // The state holds stand-ins: never kept for a next command.
        cache = nil
        return result
    }
}
