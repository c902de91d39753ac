/// A failed PostgreSQL call: what kind of failure, the server's or libpq's message, and the
/// SQLSTATE code when the server sent one.
struct PostgresError: Error, Equatable, Sendable {
    /// What went wrong, as far as `todo` must tell cases apart.
    enum Kind: Equatable, Sendable {
        /// libpq could not be loaded.
        case libraryMissing
        /// No connection could be made (server down, refused, bad address or password).
        case connection
        /// The connection broke during a query; the server rolled the transaction back.
        case connectionLost
        /// The server refused a query; `sqlState` says why.
        case query
    }

    var kind: Kind
    /// libpq's or the server's text, without the trailing newline libpq adds.
    var message: String
    /// The five-character SQLSTATE of a refused query (`40001`, `23505`, ...), if any.
    var sqlState: String?

    init(kind: Kind, message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = message.trimmingTrailingNewlines()
        self.sqlState = sqlState
    }

    /// A serialization failure or a deadlock: the transaction may succeed if run again.
    var isRetryable: Bool {
        sqlState == "40001" || sqlState == "40P01"
    }
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last.isNewline { text.removeLast() }
        return String(text)
    }
}
