/// One connection to a PostgreSQL server through libpq, closed when released.
///
/// Every query is parameterized (`$1`, `$2`, ... with the values sent apart from the text),
/// so no SQL is ever built from a user's words. Values travel as text, which is what every
/// column type `todo` stores reads and writes exactly.
final class PostgresConnection {
    // Not private: the notifications of `todo watch` (PostgresConnection+Notify.swift) use
    // them too.
    let library: LibPQ
    let handle: OpaquePointer

    /// Connects with `conninfo`: a `postgresql://` URI or `key=value` pairs. What it leaves
    /// out comes from libpq's usual environment variables (`PGHOST`, `PGUSER`, ...) and
    /// `~/.pgpass`, as with `psql`.
    init(_ conninfo: String) throws(PostgresError) {
        let library: LibPQ
        switch LibPQ.shared {
        case .success(let loaded): library = loaded
        case .failure(let error): throw error
        }
        let handle = library.connect(conninfo)
        guard let handle else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard library.status(handle) == LibPQ.connectionOK else {
            let message = library.errorMessage(handle).map { String(cString: $0) } ?? "unknown error"
            library.finish(handle)
            throw PostgresError(kind: .connection, message: message)
        }
        // The server's notices (such as "relation already exists, skipping") would go to
        // standard error by default, in the middle of a command's output.
        _ = library.setNoticeProcessor(handle, { _, _ in }, nil)
        self.library = library
        self.handle = handle
    }

    deinit {
        library.finish(handle)
    }

    /// Whether the connection still works, as libpq last saw it.
    var isConnected: Bool {
        library.status(handle) == LibPQ.connectionOK
    }

    /// Runs `sql` with `parameters` bound to `$1`, `$2`, ... (`nil` is SQL's NULL) and returns
    /// its rows, each value as text or `nil` for NULL.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        let result = withParameterPointers(parameters) { pointers in
            library.executeParameters(handle, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        defer { library.clear(result) }
        let status = result.map { library.resultStatus($0) }
        guard let result, status == LibPQ.commandOK || status == LibPQ.tuplesOK else {
            throw failure(of: result)
        }
        let rows = library.tupleCount(result)
        let columns = library.fieldCount(result)
        var table: [[String?]] = []
        table.reserveCapacity(Int(rows))
        for row in 0..<rows {
            var values: [String?] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns {
                if library.isNull(result, row, column) != 0 {
                    values.append(nil)
                } else {
                    values.append(library.value(result, row, column).map { String(cString: $0) })
                }
            }
            table.append(values)
        }
        return table
    }

    /// The error of a failed result: the server's SQLSTATE when it sent one, or a lost
    /// connection when libpq has none.
    private func failure(of result: OpaquePointer?) -> PostgresError {
        let sqlState = result.flatMap { library.resultErrorField($0, LibPQ.sqlStateField) }.map { String(cString: $0) }
        // The primary message alone when the server sent one; libpq's full text, which
        // adds the statement's fragment and a caret, only when it did not.
        let primary = result.flatMap { library.resultErrorField($0, LibPQ.primaryMessageField) }.map { String(cString: $0) } ?? ""
        let text = primary.isEmpty ? (result.flatMap { library.resultErrorMessage($0) }.map { String(cString: $0) } ?? "") : primary
        let message = text.isEmpty ? (library.errorMessage(handle).map { String(cString: $0) } ?? "unknown error") : text
        if sqlState == nil && !isConnected {
            return PostgresError(kind: .connectionLost, message: message)
        }
        return PostgresError(kind: .query, message: message, sqlState: sqlState)
    }
}

/// Calls `body` with C strings of `parameters` that live for the call.
private func withParameterPointers<Result>(
    _ parameters: [String?],
    _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result
) -> Result {
    let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
