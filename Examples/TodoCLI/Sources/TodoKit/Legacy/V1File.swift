import Foundation
import UndoableReducer

/// Reads a data file of the first `todo` (format 1, JSON; see ``V1FileFormat``) to import it:
/// every section checked against its checksum, the list's ids checked for duplicates, and the
/// history rebuilt by replaying its actions, the one time that format is read.
enum V1File {

    /// The state the file at `path` holds.
    static func read(_ path: String, reducer: Undoable<TodoReducer>) throws(DataFileProblem) -> UndoableState<TodoList> {
        let file = try readRegularFile(path)
        guard let newline = file.prefix(V1FileFormat.maximumHeaderLength).firstIndex(of: 0x0A) else { throw .notTodoDatabase }
        let line = file[file.startIndex ..< newline]
        let header = try V1FileFormat.header(from: Data(line))
        let headerLength = newline - file.startIndex + 1
        let expected = header.fileLength(headerLength: headerLength)
        guard expected == file.count else { throw .wrongLength(expected: expected, actual: file.count) }
        let presentStart = file.startIndex + headerLength
        let present = file[presentStart ..< presentStart + header.present.bytes]
        let historyStart = presentStart + header.present.bytes + 1
        let history = file[historyStart ..< historyStart + header.history.bytes]
        guard file[presentStart + header.present.bytes] == 0x0A else { throw .checksumMismatch(section: "list") }
        guard file[historyStart + header.history.bytes] == 0x0A else { throw .checksumMismatch(section: "history") }
        try header.present.verify(Data(present), name: "list")
        try header.history.verify(Data(history), name: "history")

        let list: TodoList
        do {
            list = try JSONDecoder().decode(TodoList.self, from: present)
        } catch {
            throw .undecodable(section: "list")
        }
        var seen: [UUID: Int] = [:]
        for (offset, item) in list.items.enumerated() {
            if let first = seen[item.id] { throw .duplicateID(item.id.uuidString, positions: [first, offset + 1]) }
            seen[item.id] = offset + 1
        }
        let saved: V1SavedHistory
        do {
            saved = try JSONDecoder().decode(V1SavedHistory.self, from: history)
        } catch {
            throw .undecodable(section: "history")
        }
        do {
            return try reducer.restore(saved.replay(arrivingAt: list))
        } catch {
            throw .historyMismatch
        }
    }
}
