import UndoableReducer

/// The history's rows: the `steps` table (one row per kept step) and the outline in `meta`.
///
/// Not yet saved: the history is saved as the library's `HistoryArchive` (each step's
/// reversion, exactly), which lands with issue 12; until then a history lasts one process.
struct HistoryRows {

    /// The saved history's rows.
    static func load(from database: Database) throws(DataFileProblem) -> HistoryRows {
        HistoryRows()
    }

    /// The undoable state made of `present` and this history.
    func state(present: TodoList) throws(DataFileProblem) -> UndoableState<TodoList> {
        UndoableState(present)
    }

    /// Writes what changed in the history between `before` and `after`.
    mutating func write(before: UndoableState<TodoList>, after: UndoableState<TodoList>, to database: Database) throws {}
}
