import CSQLite
import Foundation

/// A prepared SQL statement of one ``Database``: bind parameters, step through rows, read
/// columns. Finalized when released.
///
/// Parameters are numbered from 1 and columns from 0, as in SQLite's C API.
final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database
    /// The SQL, for error messages.
    let sql: String

    init(_ sql: String, in database: Database) throws(DatabaseError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(database.handle, code: code, operation: "prepare a query")
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, ..., after resetting the statement.
    @discardableResult
    func bind(_ values: DatabaseValue...) throws(DatabaseError) -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case let .integer(integer):
                code = sqlite3_bind_int64(handle, index, integer)
            case let .text(text):
                code = sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
            case let .blob(data):
                code = data.withUnsafeBytes { bytes in
                    // A zero-length blob still needs a non-null pointer to be a blob, not NULL.
                    sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), csqlite_transient())
                }
            }
            guard code == SQLITE_OK else {
                throw DatabaseError(database.handle, code: code, operation: "prepare a query")
            }
        }
        return self
    }

    /// Advances to the next row: `true` if there is one, `false` when the statement is done.
    func step() throws(DatabaseError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        case let code:
            let error = DatabaseError(database.handle, code: code, operation: "run a query")
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows (or whose rows are not needed).
    func run() throws(DatabaseError) {
        while try step() {}
    }

    /// Column `index` of the current row as an integer (`0` for NULL).
    func integer(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` of the current row as text, or `nil` for NULL. Invalid UTF-8 is
    /// repaired with U+FFFD, as `String(decoding:as:)` does.
    func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` of the current row as bytes, or `nil` for NULL.
    func blob(_ index: Int32) -> Data? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// The storage class of column `index` in the current row (`SQLITE_INTEGER`, ...).
    func type(_ index: Int32) -> Int32 {
        sqlite3_column_type(handle, index)
    }

    /// Calls `body` with column `index` of the current row as raw UTF-8 bytes, without
    /// copying them; empty for NULL. The fast path for reading many rows.
    func withText<T>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let bytes = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
    }
}

/// A value bound to a statement parameter.
enum DatabaseValue {
    case null
    case integer(Int64)
    case text(String)
    case blob(Data)
}
