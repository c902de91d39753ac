import Foundation
import UndoableReducer

// The open scope: its level for the note every command adds, and the mark an earlier `todo` left.
extension TodoDataFile {

    /// The `meta` key an earlier `todo` set when a shell was left with a scope open; removed
    /// by every write that leaves no scope open (the note is now said on every command).
    static let openScopeKey = "open-scope-notice"

    /// The level of the open scope (0 outside any), from what this process last read if no
    /// other process has written since, else from the history's outline alone; `nil` if the
    /// file cannot be read. Best effort: the note it feeds is a courtesy, and a command that
    /// needs the file says why it cannot read it.
    public func openScopeLevel() -> Int? {
        try? reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return 0 }
            if let cache, try currentDataVersion(database) == cache.dataVersion {
                return cache.state.scopeLevel
            }
            return try read(database) { () throws(DataFileProblem) in try HistoryRows.scopeLevel(in: database) }
        }
    }

    /// Removes the open-scope mark when a write leaves no scope open.
    func clearOpenScopeMark(_ database: Database, after state: UndoableState<TodoList>) throws {
        guard state.scopeLevel == 0 else { return }
        try database.statement("DELETE FROM meta WHERE key = ?").bind(.text(Self.openScopeKey)).run()
    }
}
