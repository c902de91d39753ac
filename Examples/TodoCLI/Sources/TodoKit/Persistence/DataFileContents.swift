import Foundation
import UndoableReducer

/// Turns an undoable todo state into the data file's bytes and back.
enum DataFileContents {

    /// The file bytes for `state`: the present and the history written down as a replay.
    static func encode(_ state: UndoableState<TodoList>) throws(DataFileProblem) -> Data {
        let encoder = JSONEncoder()
        // Sorted keys make the bytes a function of the state: the same state always gets the
        // same checksums, so a command that changes nothing is seen not to, and no write.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let replay = try state.replay(of: TodoAction.self)
            let present = try encoder.encode(state.present)
            let history = try encoder.encode(SavedHistory(replay))
            return DataFileFormat.file(present: present, history: history)
        } catch {
            // Only a history that cannot be undone to its start gets here: a library bug.
            throw .system(operation: "write the history", reason: String(describing: error))
        }
    }

    /// Decodes the present section.
    static func decodePresent(_ payload: Data) throws(DataFileProblem) -> TodoList {
        do {
            return try JSONDecoder().decode(TodoList.self, from: payload)
        } catch {
            throw .undecodable(section: "list")
        }
    }

    /// Decodes the history section and replays it to the saved `present`.
    static func decodeHistory(
        _ payload: Data,
        present: TodoList,
        reducer: Undoable<TodoReducer>
    ) throws(DataFileProblem) -> UndoableState<TodoList> {
        let saved: SavedHistory
        do {
            saved = try JSONDecoder().decode(SavedHistory.self, from: payload)
        } catch {
            throw .undecodable(section: "history")
        }
        do {
            return try reducer.restore(saved.replay(arrivingAt: present))
        } catch {
            throw .historyMismatch
        }
    }
}
