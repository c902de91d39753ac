import Foundation
import Revertible
import UndoableReducer

// Checking: the caller's history read whole, what commands read a step at a time.
extension TodoServerStore {

    /// Checks the list and every step of the caller's history (its checksum, its place in
    /// the tree), as no single command does. The server keeps its own pages; other people's
    /// histories are theirs to check. Writes nothing.
    ///
    /// - Returns: What was checked, in one line.
    public func check() throws(TodoError) -> String {
        let state = try readState()
        let steps: Int
        do throws(HistoryArchiveError) {
            steps = try state.checkEveryHistoryStep()
        } catch {
            throw TodoError(.dataFile, "\(displayName): the history of \(author ?? "you") is damaged (\(HistoryMismatch.readable(error.message)))")
        }
        let items = "\(state.present.items.count) item\(state.present.items.count == 1 ? "" : "s")"
        return "Checked \(displayName): \(items) and \(steps) step\(steps == 1 ? "" : "s") of your history; no damage found"
    }
}
