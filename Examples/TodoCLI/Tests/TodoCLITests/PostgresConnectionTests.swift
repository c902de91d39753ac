import Foundation
import Testing
@testable import TodoKit

/// The PostgreSQL client underneath the server store: libpq loaded at run time, parameterized
/// queries, and errors a command can report in one line. Each test uses a new database on the
/// tests' own throwaway server (see `ThrowawayPostgres`).
@Suite("PostgreSQL connection", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct PostgresConnectionTests {

    @Test("Values travel as parameters, never as SQL: a title that looks like SQL is stored as written")
    func parametersAreNotSQL() throws {
        let connection = try PostgresConnection(try ThrowawayPostgres.newDatabase())
        try connection.query("CREATE TABLE items (id serial PRIMARY KEY, title text NOT NULL, note text)")
        let titles = ["'); drop table items; --", "Robert'); DROP TABLE items;--", "$1 \\ \" ' ;", "café ☕️ 😀", ""]
        for title in titles {
            try connection.query("INSERT INTO items (title, note) VALUES ($1, $2)", [title, nil])
        }
        let rows = try connection.query("SELECT title, note FROM items ORDER BY id")
        #expect(rows.map { $0[0] } == titles)
        #expect(rows.allSatisfy { $0[1] == nil })
        #expect(try connection.query("SELECT count(*) FROM items") == [["\(titles.count)"]])
    }

    @Test("A refused query carries the server's SQLSTATE and message; the connection stays usable")
    func refusedQuery() throws {
        let connection = try PostgresConnection(try ThrowawayPostgres.newDatabase())
        let error = try #require(throws: PostgresError.self) {
            try connection.query("SELEC 1")
        }
        #expect(error.kind == .query)
        #expect(error.sqlState == "42601")
        #expect(error.message.contains("syntax error"))
        #expect(!error.message.hasSuffix("\n"))
        #expect(!error.isRetryable)
        #expect(try connection.query("SELECT 1 + $1::int", ["41"]) == [["42"]])
    }

    @Test("A server that is not there is a connection error with libpq's one-line reason")
    func connectionRefused() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-server-\(UUID().uuidString)").path
        let error = try #require(throws: PostgresError.self) {
            try PostgresConnection("host=\(missing) port=5432 user=todo dbname=postgres connect_timeout=2")
        }
        #expect(error.kind == .connection)
        #expect(error.message.contains("No such file or directory") || error.message.contains("could not connect"))
    }

    @Test("A serialization failure is told apart as retryable")
    func serializationFailureIsRetryable() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let first = try PostgresConnection(conninfo)
        let second = try PostgresConnection(conninfo)
        try first.query("CREATE TABLE counter (n int NOT NULL)")
        try first.query("INSERT INTO counter VALUES (0)")
        try first.query("BEGIN ISOLATION LEVEL SERIALIZABLE")
        try second.query("BEGIN ISOLATION LEVEL SERIALIZABLE")
        _ = try first.query("SELECT n FROM counter")
        _ = try second.query("SELECT n FROM counter")
        try first.query("UPDATE counter SET n = n + 1")
        try first.query("COMMIT")
        let error = try #require(throws: PostgresError.self) {
            try second.query("UPDATE counter SET n = n + 1")
        }
        #expect(error.sqlState == "40001")
        #expect(error.isRetryable)
        try second.query("ROLLBACK")
        #expect(try first.query("SELECT n FROM counter") == [["1"]])
    }
}
