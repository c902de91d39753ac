import Foundation

// The first `todo`'s JSON file, imported into a database on first use.
extension TodoDataFile {

    /// Imports the first todo's file at `legacy` into a database at `target`, and says so.
    func importVersion1(from legacy: String, to target: String) throws(DataFileProblem) {
        if let importFailure { throw importFailure }
        let converted: V1Import.Report?
        do {
            // Every step the old file kept, whatever this run's limit: the import happens on
            // whatever command comes first, a `list` too, and a read never discards history.
            // The limit applies on the next write, as for any file.
            converted = try V1Import.convert(from: legacy, to: target, reducer: TodoReducer.withUndo(historyLimit: nil))
        } catch {
            importFailure = error
            throw error
        }
        guard let report = converted else { return }
        let steps = "\(report.steps) history step\(report.steps == 1 ? "" : "s")"
        let items = "\(report.items) item\(report.items == 1 ? "" : "s")"
        notice("imported \(legacy), a file of an earlier todo (\(items), \(steps)), into the database \(target); the old file is kept as \(report.backup)")
    }
}
