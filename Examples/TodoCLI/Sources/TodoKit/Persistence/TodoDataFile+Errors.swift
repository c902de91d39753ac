import Foundation

// Turning SQLite's and the file's errors into the todo's.
extension TodoDataFile {

    /// The problem for a lock wait that timed out, if `error` is one.
    func locked(_ error: DatabaseError) -> DataFileProblem? {
        guard error.primaryCode == 5 /* SQLITE_BUSY */ else { return nil }
        return .locked(seconds: Double(lockTimeout.components.seconds) + Double(lockTimeout.components.attoseconds) / 1e18)
    }

    /// Runs `body`, turning a data file problem into an error that names the file.
    func reported<T>(_ body: () throws(DataFileProblem) -> T) throws(TodoError) -> T {
        do {
            return try body()
        } catch {
            throw .dataFile(path, error)
        }
    }
}
