import Foundation
import Revertible
import UndoableReducer

// Checking: the whole file read at once, what commands read a piece at a time.
extension TodoDataFile {

    /// Checks every page of the file (`PRAGMA integrity_check`), every item row's checksum,
    /// and every history step (its checksum, its place in the tree), as no single command
    /// does: a command reads only the rows it needs. Writes nothing.
    ///
    /// - Returns: What was checked, in one line.
    /// - Throws: The first damage found, as the file's problem.
    public func check() throws(TodoError) -> String {
        try reported { () throws(DataFileProblem) in
            guard let database = try open(forWriting: false) else { return "Nothing to check: \(path) holds no list yet" }
            return try read(database) { () throws(DataFileProblem) in
                let pages: [String]
                do {
                    let query = try database.statement("PRAGMA integrity_check")
                    try query.bind()
                    defer { _ = try? query.bind() }
                    var found: [String] = []
                    while try query.step() { found.append(query.text(0) ?? "") }
                    pages = found
                } catch {
                    throw DataFileProblem(describing: error)
                }
                guard pages == ["ok"] else {
                    throw .damaged("the file's pages: \(pages.prefix(3).joined(separator: "; "))")
                }
                let (list, _) = try ItemRows.load(from: database)
                let state = try HistoryRows.open(in: database).state(present: list)
                let steps: Int
                do throws(HistoryArchiveError) {
                    steps = try state.checkEveryHistoryStep()
                } catch {
                    throw .damaged(HistoryMismatch.readable(error.message))
                }
                let items = "\(list.items.count) item\(list.items.count == 1 ? "" : "s")"
                return "Checked \(path): every page, \(items) and \(steps) history step\(steps == 1 ? "" : "s"); no damage found"
            }
        }
    }
}
