/// A failed PostgreSQL call: what kind of failure, the server's or libpq's message, and the
/// SQLSTATE code when the server sent one.
///
/// Its description is the message, never a dump of the type: whatever prints one shows a user
/// words. A connection failure's description leaves libpq's text out, since that may quote
/// the connection string; ``TodoServerStore/said(_:)`` shows it with the secrets removed.
struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
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
        /// The tables hold what `todo` never writes (a hand edit, or another program):
        /// reported as damage, not as something the server refused.
        case damaged
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

    var description: String {
        kind == .connection ? "cannot connect to the server" : message
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
