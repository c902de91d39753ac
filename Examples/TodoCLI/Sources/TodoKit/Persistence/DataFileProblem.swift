import Revertible
import CSQLite

/// What is wrong with a data file that cannot be used. Every one of these leaves the file
/// untouched: `todo` refuses to write over what it cannot read.
public enum DataFileProblem: Error, Equatable, Sendable {
    /// A system call failed; what was being done, and the system's explanation.
    case system(operation: String, reason: String)
    /// SQLite refused; what was being done, and SQLite's explanation.
    case database(operation: String, reason: String)
    /// The path names something other than a regular file (a directory, a FIFO, ...).
    case notRegularFile(kind: String)
    /// The file is a database or a file of another program, or too damaged to tell.
    case notTodoDatabase
    /// A newer `todo` wrote it, with a schema this one does not know.
    case newerSchema(version: Int64)
    /// SQLite or `PRAGMA quick_check` found damage; SQLite's words.
    case damaged(String)
    /// The file is write-protected (no write permission bit, or not writable by this user).
    case writeProtected
    /// Another process held the database's lock for longer than the timeout.
    case locked(seconds: Double)

    // The first todo's JSON file (format 1), read once to import it.

    /// A format 1 file written by a newer `todo`, in a format this one does not know.
    case newerFormat(version: Int)
    /// A format 1 file shorter or longer than its header says.
    case wrongLength(expected: Int, actual: Int)
    /// A format 1 section whose bytes do not match the checksum in the header.
    case checksumMismatch(section: String)
    /// A format 1 section whose checksum matches but whose contents cannot be decoded.
    case undecodable(section: String)
    /// A format 1 history that does not replay to the saved list.
    case historyMismatch
    /// Two items share one id (at these 1-based positions).
    case duplicateID(String, positions: [Int])

    /// The problem SQLite's `error` reports.
    /// `error`, thrown while reading or writing the file, as the file's problem: a problem as
    /// it is, a database error by its code, a history the library refused or anything else
    /// (a history row's damage) as damage.
    init(describing error: any Error) {
        switch error {
        case let problem as DataFileProblem: self = problem
        case let error as DatabaseError: self.init(error)
        case let error as HistoryArchiveError: self = .damaged(HistoryMismatch.readable(error.message))
        default: self = .damaged(String(describing: error))
        }
    }

    init(_ error: DatabaseError) {
        switch error.primaryCode {
        case SQLITE_NOTADB: self = .notTodoDatabase
        case SQLITE_CORRUPT: self = .damaged(error.message)
        case SQLITE_READONLY: self = .writeProtected
        default: self = .database(operation: error.operation, reason: error.message)
        }
    }

    /// Whether the file's contents are at fault (rather than the system or another
    /// process); the message then says the file was left as it was.
    var isAboutContents: Bool {
        switch self {
        case .system, .database, .notRegularFile, .writeProtected, .locked: false
        default: true
        }
    }

    /// Why the file cannot be used, for the one-line error.
    var reason: String {
        switch self {
        case let .system(operation, reason):
            "cannot \(operation): \(reason)"
        case let .database(operation, reason):
            "cannot \(operation): \(reason)"
        case let .notRegularFile(kind):
            "not a regular file (\(kind)); give the path of a file"
        case .notTodoDatabase:
            "not a todo database (another program's file, or damaged)"
        case let .newerSchema(version):
            "written by a newer todo (schema version \(version); this todo knows up to \(TodoSchema.version)); upgrade todo"
        case let .damaged(detail):
            "the database is damaged (\(detail))"
        case .writeProtected:
            "the file is write-protected; nothing was changed"
        case let .locked(seconds):
            "another todo kept the file locked for \(Self.format(seconds)) seconds; nothing was changed (TODO_LOCK_TIMEOUT sets the wait)"
        case let .newerFormat(version):
            "written by a newer todo (format \(version)); upgrade todo"
        case let .wrongLength(expected, actual):
            "the file is damaged or truncated (\(actual) bytes, the header says \(expected))"
        case let .checksumMismatch(section):
            "the file is damaged (checksum mismatch in the \(section) section)"
        case let .undecodable(section):
            "the \(section) section cannot be decoded"
        case .historyMismatch:
            "the history does not replay to the saved list"
        case let .duplicateID(id, positions):
            "items \(positions.map(String.init).joined(separator: " and ")) share the id \(id)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
