import CSQLite

/// A failed SQLite call: what was being done, SQLite's result code and its message.
///
/// The message is SQLite's own (`sqlite3_errmsg`), so a user who searches for it finds
/// SQLite's documentation; the data file's path is added where the error is reported.
struct DatabaseError: Error, Equatable, Sendable {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
    var code: Int32
    /// SQLite's explanation.
    var message: String
    /// What `todo` was doing, for the message ("open it", "write the change").
    var operation: String

    /// The primary result code, without the extended bits.
    var primaryCode: Int32 { code & 0xFF }

    /// The last error of `connection`.
    init(_ connection: OpaquePointer?, code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
    }

    init(code: Int32, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    /// The database is damaged, or is not a database at all.
    var isDamage: Bool {
        primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB
    }
}
