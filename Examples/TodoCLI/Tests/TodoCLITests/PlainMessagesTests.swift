import Foundation
import Testing
@testable import TodoKit

/// Messages in a user's words, not the program's insides (issue 35, item 11), and `--as` on a
/// file (item 10).
@Suite("Plain messages")
struct PlainMessagesTests {
    /// A connection string to a socket folder that does not exist: libpq fails at once.
    static let unreachable = "host=/nonexistent-todo-socket-folder dbname=x"

    @Test("A server error prints as its message, never as a dump of the Swift type")
    func postgresErrorDescription() {
        let error = PostgresError(kind: .query, message: "column \"done\" does not exist", sqlState: "42703")
        #expect("\(error)" == "column \"done\" does not exist")
        let store = TodoServerStore(conninfo: Self.unreachable, author: "a", historyLimit: 1)
        #expect(store.reason(error) == "column \"done\" does not exist")
        // A connection failure's text may quote the connection string: left out of the
        // description, which something may print without cleaning it.
        #expect("\(PostgresError(kind: .connection, message: "bad \"password=x\""))" == "cannot connect to the server")
    }

    @Test("undo with a count too large for a number says so, not \"unknown tag\"")
    func tooLargeCount() throws {
        let error = #expect(throws: TodoError.self) { try CommandParser.historyTarget("99999999999999999999") }
        #expect(error?.message.contains("too large") == true)
        #expect(error?.message.contains("tag") == false)
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        for command in ["undo", "redo"] {
            let result = try todo.run([command, "99999999999999999999"])
            #expect(result.status == 1)
            #expect(result.stderr == "todo: the number of steps 99999999999999999999 is too large: no history holds that many\n")
        }
        #expect(try todo.titles() == ["milk"])
    }

    @Test("A name with a line break exits 1, as one with any other control character does")
    func nameExitCodes() throws {
        let todo = try Sandbox()
        for name in ["bob\nsmith", "bob\u{07}", "bob\u{1B}[2J", "bob\r"] {
            let result = try todo.run(["--database", Self.unreachable, "--as", name, "list"])
            #expect(result.status == 1, "\(name.debugDescription): \(result.stderr)")
            #expect(result.stderr.contains("--as"), "\(result.stderr)")
        }
    }

    @Test("A bad TODO_USER is named as TODO_USER, not blamed on --as")
    func todoUserNamed() throws {
        let todo = try Sandbox()
        for name in ["bob\nsmith", "bob\u{07}"] {
            let result = try todo.run(["list"], environment: ["TODO_DATABASE": Self.unreachable, "TODO_USER": name])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("TODO_USER"), "\(result.stderr)")
            #expect(!result.stderr.contains("--as"), "\(result.stderr)")
        }
    }

    @Test("--as on a file is refused, not ignored: undo there would take back anyone's step")
    func asOnAFile() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        let result = try todo.run(["--as", "bob", "undo"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("todo: --as applies only to a list on a server (--database)"), "\(result.stderr)")
        #expect(try todo.titles() == ["milk"])
        // Without --as the file works as before.
        #expect(try todo.ok("undo").stdout == "Undid: add \"milk\"\n")
    }
}

/// The same on a server: the tests' own throwaway PostgreSQL.
@Suite("Plain messages from a server", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct PlainServerMessagesTests {
    @Test("Two rows in list_version are reported as a damaged database, and nothing is changed")
    func twoListVersions() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let todo = try Sandbox()
        todo.environment["TODO_DATABASE"] = conninfo
        try todo.ok("--as", "alice", "add", "milk")
        let admin = try PostgresConnection(conninfo)
        try admin.query("INSERT INTO list_version VALUES (7)")
        for command in [["list"], ["add", "eggs"], ["undo"]] {
            let result = try todo.run(["--as", "alice"] + command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("the database is damaged (the list_version table holds 2 rows, not one)"), "\(result.stderr)")
        }
        #expect(try admin.query("SELECT title FROM items") == [["milk"]])
    }

    @Test("A server's error shows its first line only, without todo's SQL, and no password of the address")
    func serverErrorsPlain() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let todo = try Sandbox()
        // The throwaway server trusts its socket, so any password is accepted and ignored.
        let withPassword = conninfo + #" password='b0b s3cret' sslpassword=Super\ Secret1"#
        try todo.ok("--database", withPassword, "--as", "alice", "add", "milk")
        let admin = try PostgresConnection(conninfo)
        try admin.query("ALTER TABLE items RENAME COLUMN done TO finished")
        for command in [["list"], ["add", "eggs"], ["undo"], ["history"], ["list", "--json"]] {
            let result = try todo.run(["--database", withPassword, "--as", "alice"] + command)
            let output = result.stdout + result.stderr
            #expect(result.status == 1, "\(command)")
            #expect(output.contains("column \"done\" does not exist"), "\(output)")
            for leak in ["LINE 1", "^", "PostgresError", "TodoKit.", "s3cret", "Secret1"] {
                #expect(!output.contains(leak), "\(command): \(output)")
            }
        }
    }
}
