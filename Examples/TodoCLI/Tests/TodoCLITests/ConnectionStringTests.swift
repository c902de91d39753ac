import Foundation
import Testing
@testable import TodoKit

/// The connection-string reader that keeps passwords out of messages (issue 35, item 3): one
/// row per spelling libpq accepts, each with the password it must find and what a message
/// may show instead.
@Suite("Connection strings: every password found and hidden")
struct ConnectionStringTests {
    /// A connection string, the secret text no output may hold, and its redacted form.
    struct Case: CustomTestStringConvertible, Sendable {
        var conninfo: String
        var forbidden: [String]
        var redacted: String
        var testDescription: String { redacted }
    }

    static let cases: [Case] = [
        Case(conninfo: "postgresql://ann:secret1@db.example/shop", forbidden: ["secret1"], redacted: "postgresql://ann:***@db.example/shop"),
        Case(conninfo: "postgres://ann:secret1@db.example:5433/shop", forbidden: ["secret1"], redacted: "postgres://ann:***@db.example:5433/shop"),
        Case(conninfo: "postgresql://ann:Sup%65rSecret@db/shop", forbidden: ["Sup%65rSecret", "SuperSecret"], redacted: "postgresql://ann:***@db/shop"),
        Case(conninfo: "postgresql://db/shop?user=ann&password=QuerySecret", forbidden: ["QuerySecret"], redacted: "postgresql://db/shop?user=ann&password=***"),
        Case(conninfo: "postgresql://db/shop?pass%77ord=Q%75erySecret&sslmode=disable", forbidden: ["Q%75erySecret", "QuerySecret"], redacted: "postgresql://db/shop?pass%77ord=***&sslmode=disable"),
        Case(conninfo: "postgresql://a:first111@db/x?password=second22", forbidden: ["first111", "second22"], redacted: "postgresql://a:***@db/x?password=***"),
        Case(conninfo: "postgresql://a:pw1234@[::1]:5432/x", forbidden: ["pw1234"], redacted: "postgresql://a:***@[::1]:5432/x"),
        Case(conninfo: "host=db password=secret dbname=shop", forbidden: ["secret"], redacted: "host=db password=*** dbname=shop"),
        Case(conninfo: "password='b0b s3cret' host=db", forbidden: ["b0b s3cret", "s3cret"], redacted: "password=*** host=db"),
        Case(conninfo: #"password=Super\ Secret1 host=db"#, forbidden: ["Super", "Secret1"], redacted: "password=*** host=db"),
        Case(conninfo: #"password='it\'s a \\ secret' host=db"#, forbidden: ["it's a \\ secret", "s a \\ sec"], redacted: "password=*** host=db"),
        Case(conninfo: "host=db password = spaced0ut dbname=x", forbidden: ["spaced0ut"], redacted: "host=db password = *** dbname=x"),
        Case(conninfo: "password=first111 host=db password=second22", forbidden: ["first111", "second22"], redacted: "password=*** host=db password=***"),
        Case(conninfo: "host=db\tpassword=tabbed11\nuser=ann", forbidden: ["tabbed11"], redacted: "host=db\tpassword=***\nuser=ann"),
        // libpq skips whitespace after "=": the password is "host=db".
        Case(conninfo: "password= host=db", forbidden: ["host=db"], redacted: "password= ***"),
        Case(conninfo: "host=db sslpassword=keyPhrase9", forbidden: ["keyPhrase9"], redacted: "host=db sslpassword=***"),
        Case(conninfo: "dbname='postgresql://a:inner999@db/x' host=db", forbidden: ["inner999"], redacted: "dbname=*** host=db"),
    ]

    @Test("Each spelling's password is found, and the redacted form holds none of it", arguments: cases)
    func redacts(_ row: Case) throws {
        let parsed = try ConnectionString(parsing: row.conninfo)
        #expect(parsed.redacted == row.redacted)
        // A message quoting the whole string, or a password as libpq read it or as it is
        // spelled, is cleaned of it too.
        let message = "could not translate host name \"\(row.conninfo)\"; " + parsed.secrets.map { "password \"\($0)\" refused" }.joined(separator: "; ")
        for secret in row.forbidden {
            #expect(!parsed.redacted.contains(secret))
            #expect(!parsed.scrub(message).contains(secret), "\(parsed.scrub(message))")
        }
        let store = TodoServerStore(conninfo: row.conninfo, author: "a", historyLimit: 1)
        for secret in row.forbidden { #expect(!store.displayName.contains(secret)) }
    }

    @Test("libpq's values: unquoted, unescaped, percent-decoded; repeated keys kept")
    func values() throws {
        func settings(_ text: String) throws -> [String] {
            try ConnectionString(parsing: text).settings.map { "\($0.key)=\($0.value)" }
        }
        #expect(try settings(#"password='it\'s' user=a\ b"#) == ["password=it's", "user=a b"])
        #expect(try settings("postgresql://u%40x:p%2Fw@h1:1,h2:2/d%20b?sslmode=require") == ["user=u@x", "password=p/w", "host=h1", "port=1", "host=h2", "port=2", "dbname=d b", "sslmode=require"])
        #expect(try settings("postgresql:///db?host=/tmp") == ["dbname=db", "host=/tmp"])
        #expect(try settings("") == [])
    }

    @Test("A string libpq refuses is refused without quoting any of it", arguments: [
        ("postgresql://todoapp:SuperSecret1@[::1/sec3", ConnectionString.Problem.unclosedBracket),
        ("postgresql://todoapp:SuperSecret1@[]/sec3", .emptyBracket),
        ("postgresql://todoapp:SuperSecret1@[::1]x/sec3", .unexpectedAfterBracket),
        ("postgresql://todoapp:Super%zzSecret1@db/x", .badPercentEscape),
        ("postgresql://todoapp:Super%00Secret1@db/x", .percentEncodedZero),
        ("postgresql://db/x?password=Super%4", .badPercentEscape),
        ("postgresql://db/x?SuperSecret1", .queryParameterWithoutEquals),
        ("postgresql://db/x?password=a=SuperSecret1", .queryParameterWithTwoEquals),
        ("postgresql://todoapp:Super@Secret1@db/x", .ambiguousAt),
        ("postgresql://todoapp:Super/Secret1@db/x", .ambiguousAt),
        ("password='SuperSecret1 host=db", .unterminatedQuote),
        ("password=Super Secret1 host=db", .missingEquals),
        ("POSTGRESQL://todoapp:SuperSecret1@db/x", .missingEquals),
    ])
    func refuses(_ conninfo: String, _ problem: ConnectionString.Problem) {
        #expect(throws: problem) { try ConnectionString(parsing: conninfo) }
        let error = TodoServerStore.conninfoProblem(conninfo, source: "TODO_DATABASE")
        #expect(error?.message.contains("TODO_DATABASE value could not be parsed") == true)
        #expect(error?.message.contains("Secret") == false)
        let store = TodoServerStore(conninfo: conninfo, author: "a", historyLimit: 1, source: "TODO_DATABASE")
        #expect(store.displayName == "the server of TODO_DATABASE")
    }

    @Test("Random passwords written in each spelling libpq accepts are read back exactly and never shown")
    func randomSpellings() throws {
        // Seeded, so a failure repeats: the characters that each spelling must escape.
        var generator = SeededGenerator(seed: 35)
        let alphabet = Array("abcXYZ019 '\\\"=@%:/?&#[],\t")
        for _ in 0..<500 {
            let length = Int.random(in: 6...14, using: &generator)
            let password = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            let quoted = "'" + password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
            var unquoted = ""
            for character in password {
                if character == " " || character == "\t" || character == "\\" || character == "'" { unquoted += "\\" }
                unquoted.append(character)
            }
            let encoded = password.utf8.map { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
            }.joined()
            let spellings = [
                "host=db password=\(quoted) user=ann",
                "password = \(quoted)",
                "host=db password=\(unquoted) user=ann",
                "postgresql://ann:\(encoded)@db:5432/shop",
                "postgresql://db/shop?user=ann&password=\(encoded)&sslmode=disable",
            ]
            for conninfo in spellings {
                let parsed = try ConnectionString(parsing: conninfo)
                #expect(parsed.settings.filter { $0.key == "password" }.map(\.value) == [password], "\(conninfo)")
                #expect(!parsed.redacted.contains(password), "\(conninfo)")
                #expect(!parsed.scrub("no \"\(conninfo)\" or \"\(password)\"").contains(password), "\(conninfo)")
            }
        }
    }

    @Test("A libpq message naming an unknown key (perhaps the tail of an unquoted password) hides it")
    func unknownKeyHidden() throws {
        let parsed = try ConnectionString(parsing: "password=Super Secret1=x host=db")
        #expect(parsed.scrub("invalid connection option \"Secret1\"") == "invalid connection option \"***\"")
        #expect(parsed.scrub("could not translate host name \"db\" to address") == "could not translate host name \"db\" to address")
    }

    @Test("A password of fewer than four characters leaves libpq's message out rather than starring letters")
    func shortPassword() throws {
        let parsed = try ConnectionString(parsing: "host=db password=ail")
        #expect(parsed.scrub("FATAL: password authentication failed for user \"ann\"") == "libpq's reason is not shown, as it might include the password")
        #expect(parsed.scrub("server closed the connection") == "server closed the connection")
    }
}

/// The same through the `todo` binary: every spelling, from `--database` and from
/// `TODO_DATABASE`, for `list` and `list --json`; the server is unreachable (a socket folder
/// that does not exist), so libpq's own connection message is printed, cleaned.
@Suite("Passwords never reach the output of todo")
struct PasswordOutputEndToEndTests {
    static let missingHost = "/nonexistent-todo-socket-folder"
    static let conninfos: [(String, [String])] = [
        ("postgresql://todoapp:SuperSecret1@[::1/sec3", ["SuperSecret1"]),
        ("postgresql://todoapp:SuperSecret1@%2Fnonexistent-todo-socket-folder/sec3", ["SuperSecret1"]),
        ("postgresql://todoapp@%2Fnonexistent-todo-socket-folder/sec3?password=Query%53ecret", ["QuerySecret", "Query%53ecret"]),
        ("host=\(missingHost) password='b0b s3cret'", ["s3cret"]),
        (#"host=\#(missingHost) password=Super\ Secret1"#, ["Secret1"]),
        ("host=\(missingHost) password=first111 password=second22", ["first111", "second22"]),
        ("postgresql://todoapp:Super%zzSecret1@db/x", ["Secret1", "%zz"]),
        ("host=\(missingHost) password=Super Secret1=x", ["Secret1"]),
    ]

    @Test("No password in standard output or error, whichever way the string is given", arguments: conninfos.indices)
    func noPassword(_ index: Int) throws {
        let (conninfo, secrets) = Self.conninfos[index]
        let todo = try Sandbox()
        for arguments in [["list"], ["list", "--json"], ["add", "milk"]] {
            let runs = [
                try todo.run(["--database", conninfo, "--as", "ann"] + arguments),
                try todo.run(["--as", "ann"] + arguments, environment: ["TODO_DATABASE": conninfo]),
            ]
            for result in runs {
                #expect(result.status != 0)
                #expect(result.stderr.hasPrefix("todo: "), "\(result.stderr)")
                for secret in secrets {
                    #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "\(result.stderr)")
                }
            }
        }
    }
}

/// A small deterministic random source (SplitMix64), so the random spellings are the same on
/// every run and a failure can be reproduced.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
