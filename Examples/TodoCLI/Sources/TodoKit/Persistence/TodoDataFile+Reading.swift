import Foundation
import UndoableReducer

// Reading: the list alone, or with its history, from this process's cache while no other process has written since.
extension TodoDataFile {

    /// The list only, without the history; an empty list if the file does not exist yet.
    public func readList() throws(TodoError) -> TodoList {
        try reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return TodoList() }
            if let cache, try currentDataVersion(database) == cache.dataVersion {
                return cache.state.present
            }
            return try read(database) { () throws(DataFileProblem) in
                try ItemRows.load(from: database).list
            }
        }
    }

    /// The list with its history; an empty one if the file does not exist yet.
    public func readState() throws(TodoError) -> UndoableState<TodoList> {
        try reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return UndoableState(TodoList()) }
            return try read(database) { () throws(DataFileProblem) in
                try load(database).state
            }
        }
    }

    /// The state, from this process's cache if no other process has written since, else
    /// from the file.
    func load(_ database: Database) throws(DataFileProblem) -> Loaded {
        let version = try currentDataVersion(database)
        if let cache, cache.dataVersion == version { return cache }
        let (list, keys) = try ItemRows.load(from: database)
        let history = try HistoryRows.open(in: database)
        let state = try history.state(present: list)
        let loaded = Loaded(state: state, keys: keys, history: history, dataVersion: version)
        cache = loaded
        return loaded
    }

    /// Runs `body` in a read transaction, so that the items and the history it reads are of
    /// one version of the file.
    func read<T>(_ database: Database, _ body: () throws(DataFileProblem) -> T) throws(DataFileProblem) -> T {
        do {
            return try database.transaction(immediate: false) { try body() }
        } catch let problem as DataFileProblem {
            throw problem
        } catch let error as DatabaseError {
            throw locked(error) ?? DataFileProblem(error)
        } catch {
            throw .database(operation: "read it", reason: String(describing: error))
        }
    }

    /// `PRAGMA data_version`: changes when another connection commits.
    func currentDataVersion(_ database: Database) throws(DataFileProblem) -> Int64 {
        do {
            return try database.integer("PRAGMA data_version") ?? 0
        } catch {
            throw DataFileProblem(error)
        }
    }
}
