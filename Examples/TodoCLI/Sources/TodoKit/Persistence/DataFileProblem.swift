/// What is wrong with a data file that cannot be used. Every one of these leaves the file
/// untouched: `todo` refuses to write over what it cannot read.
public enum DataFileProblem: Error, Equatable, Sendable {
    /// Reading, writing or locking failed; the system's explanation.
    case system(operation: String, reason: String)
    /// The file is empty.
    case empty
    /// The first line is not a todo header.
    case notTodoFile
    /// A newer `todo` wrote it, in a format this one does not know.
    case newerFormat(version: Int)
    /// The file is shorter or longer than its header says.
    case wrongLength(expected: Int, actual: Int)
    /// A section's bytes do not match the checksum in the header.
    case checksumMismatch(section: String)
    /// A section's checksum matches, but its contents cannot be decoded.
    case undecodable(section: String)
    /// The history does not replay to the saved list.
    case historyMismatch

    /// Why the file cannot be used, for the one-line error.
    var reason: String {
        switch self {
        case let .system(operation, reason):
            "cannot \(operation): \(reason)"
        case .empty:
            "the file is empty"
        case .notTodoFile:
            "not a todo data file, or its header is damaged"
        case let .newerFormat(version):
            "written by a newer todo (format \(version); this todo reads format \(DataFileFormat.version)); upgrade todo"
        case let .wrongLength(expected, actual):
            "the file is damaged or truncated (\(actual) bytes, the header says \(expected))"
        case let .checksumMismatch(section):
            "the file is damaged (checksum mismatch in the \(section) section)"
        case let .undecodable(section):
            "the \(section) section cannot be decoded"
        case .historyMismatch:
            "the history does not replay to the saved list"
        }
    }
}
