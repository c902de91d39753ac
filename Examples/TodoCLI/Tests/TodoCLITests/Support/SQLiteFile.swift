import CSQLite
import Foundation
import Testing

/// Direct access to a data file with SQLite, as another program (or a user with `sqlite3`)
/// would have it: to damage a file on purpose, or to hold its lock.
final class SQLiteFile {
    let handle: OpaquePointer

    init(_ path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        try #require(code == SQLITE_OK, "cannot open \(path): \(code)")
        self.handle = try #require(handle)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, requiring it to succeed.
    func execute(_ sql: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        try #require(code == SQLITE_OK, "\(sql): \(message.map { String(cString: $0) } ?? "\(code)")", sourceLocation: sourceLocation)
    }

    /// The first column of the first row of `sql`, as an integer.
    func integer(_ sql: String) throws -> Int64 {
        var statement: OpaquePointer?
        try #require(sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        try #require(sqlite3_step(statement) == SQLITE_ROW, "\(sql) returned no row")
        return sqlite3_column_int64(statement, 0)
    }
}
