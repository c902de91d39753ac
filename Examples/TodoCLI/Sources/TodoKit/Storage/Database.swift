import CSQLite
import Foundation

/// One connection to an SQLite database file, closed when released.
///
/// A thin layer over SQLite's C API: errors carry SQLite's message, statements are prepared
/// once and reused (a script of thousands of commands prepares each query once), and waiting
/// for another process's lock goes through a ``BusyWait``, which can say so and give up.
final class Database {
    /// How to open the file.
    enum Access {
        /// Reading only; the file must exist.
        case readOnly
        /// Reading and writing; the file must exist.
        case readWrite
        /// Reading and writing, creating an empty file if there is none.
        case create
    }

    let handle: OpaquePointer
    /// The file, as SQLite was given it.
    let path: String
    private var statements: [String: Statement] = [:]
    private let busyWait: BusyWait

    /// Opens `path`. Opening reads nothing: a file that is not a database is found out by
    /// the first query, which then fails with `SQLITE_NOTADB`.
    init(path: String, access: Access, busyWait: BusyWait) throws(DatabaseError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch access {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let error = DatabaseError(connection, code: code, operation: "open it")
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        self.path = path
        self.busyWait = busyWait
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_handler(connection, { context, count in
            guard let context else { return 0 }
            return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().shouldRetry(attempt: count) ? 1 : 0
        }, Unmanaged.passUnretained(busyWait).toOpaque())
    }

    deinit {
        // Statements first: a connection with unfinalized statements does not close.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one or more statements separated by semicolons, ignoring any rows.
    func execute(_ sql: String, operation: String = "run a query") throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw DatabaseError(code: sqlite3_extended_errcode(handle), message: text, operation: operation)
        }
    }

    /// The prepared statement for `sql`, prepared on first use and reused after.
    func statement(_ sql: String) throws(DatabaseError) -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try Statement(sql, in: self)
        statements[sql] = statement
        return statement
    }

    /// The integer the query `sql` returns in its first column of its first row (`PRAGMA
    /// user_version`, `SELECT count(*) ...`), or `nil` if it returns no row.
    func integer(_ sql: String) throws(DatabaseError) -> Int64? {
        let statement = try statement(sql)
        try statement.bind()
        defer { _ = try? statement.bind() }
        return try statement.step() ? statement.integer(0) : nil
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    ///
    /// `immediate` takes the write lock at the start (`BEGIN IMMEDIATE`), so a transaction
    /// that reads and then writes never finds, at its first write, that another process
    /// wrote in between; without it, reads see one consistent version of the file.
    func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED", operation: immediate ? "lock it for writing" : "read it")
        do {
            let result = try body()
            try execute("COMMIT", operation: "write the change")
            return result
        } catch {
            // Nothing of the failed transaction is kept; a failed rollback means SQLite
            // already rolled back (on an I/O error, say).
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int {
        Int(sqlite3_changes64(handle))
    }
}
