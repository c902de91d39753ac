import Foundation
import Testing
@testable import TodoKit

/// Issue 35's items about a team on one server list (4 to 9), end to end: the `todo` binary
/// on a new database of the tests' throwaway server, with other connections playing psql.
@Suite("A team on a server list (issue 35), end to end", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct TeamServerEndToEndTests {

    // MARK: Item 8

    @Test("8: a skip note names the person whose change is in the way, not the caller whose later undo wrote it back")
    func skipNoteNamesTheRightPerson() throws {
        let (todo, _) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "A")
        try todo.ok("--as", "alice", "edit", "1", "B")
        try todo.ok("--as", "bob", "edit", "1", "C")
        try todo.ok("--as", "alice", "edit", "1", "D")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: edit \"C\" → \"D\"\n")
        let undo = try todo.run(["--as", "alice", "undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("the title of \"C\" (bob changed it since)"), "\(undo.stderr)")
        #expect(!undo.stderr.contains("alice changed"), "\(undo.stderr)")
        #expect(try todo.titles() == ["C"])
    }

    @Test("8: a skip note names the person whose value the item holds, when another person's undo wrote it back")
    func skipNoteNamesWhoseValueItIs() throws {
        let (todo, _) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "A")
        try todo.ok("--as", "alice", "edit", "1", "B")
        try todo.ok("--as", "bob", "edit", "1", "C")
        try todo.ok("--as", "carol", "edit", "1", "E")
        // carol takes hers back: the title is bob's "C" again.
        #expect(try todo.ok("--as", "carol", "undo").stdout == "Undid: edit \"C\" → \"E\"\n")
        let undo = try todo.run(["--as", "alice", "undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("the title of \"C\" (bob changed it since)"), "\(undo.stderr)")
        #expect(try todo.titles() == ["C"])
    }

    @Test("8: a database of schema version 2 is migrated: its item changes kept, and the notes right from then on")
    func itemChangesMigrateFromVersion2() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        // A database as version 2 of the todo made it, with one change of a title recorded.
        let admin = try PostgresConnection(conninfo)
        try admin.query("CREATE TABLE schema_version (version integer NOT NULL)")
        try admin.query("INSERT INTO schema_version VALUES (2)")
        for step in ServerSchema.migrations.prefix(2) {
            for statement in step { try admin.query(statement) }
        }
        try admin.query("INSERT INTO item_changes VALUES (gen_random_uuid(), 'title', 'carol', now())")
        try todo.ok("--as", "alice", "list")
        #expect(try admin.query("SELECT version FROM schema_version") == [[String(ServerSchema.version)]])
        #expect(try admin.query("SELECT count(*) FROM item_changes WHERE author = 'carol'") == [["1"]])
        try todo.ok("--as", "alice", "add", "A")
        try todo.ok("--as", "alice", "edit", "1", "B")
        try todo.ok("--as", "bob", "edit", "1", "C")
        try todo.ok("--as", "alice", "edit", "1", "D")
        try todo.ok("--as", "alice", "undo")
        let undo = try todo.run(["--as", "alice", "undo"])
        #expect(undo.stderr.contains("the title of \"C\" (bob changed it since)"), "\(undo.stderr)")
        let authors = try admin.query("SELECT author FROM item_changes WHERE field = 'title' ORDER BY author")
        #expect(authors == [["alice"], ["bob"], ["carol"]])
    }

    // MARK: Item 4

    @Test("4: a row inserted with psql is another writer's change: every history still reads, undo goes on around it")
    func outsideInsertIsAbsorbed() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        try todo.ok("--as", "bob", "add", "eggs")
        let psql = try PostgresConnection(conninfo)
        try psql.query("INSERT INTO items (position, id, title, done) SELECT max(position) + 1000, gen_random_uuid(), 'from psql', false FROM items")
        for person in ["alice", "bob"] {
            let history = try todo.run(["--as", person, "history"])
            #expect(history.status == 0, "\(history.stderr)")
        }
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"milk\"\n")
        #expect(try todo.titles() == ["eggs", "from psql"])
        #expect(try todo.ok("--as", "bob", "undo").stdout == "Undid: add \"eggs\"\n")
        #expect(try todo.ok("--as", "alice", "redo").stdout == "Redid: add \"milk\"\n")
        #expect(try todo.titles() == ["milk", "from psql"])
        #expect(try todo.ok("--as", "bob", "history").stdout.contains("add \"eggs\""))
    }

    @Test("4: a row deleted with psql is another writer's change: histories read, and an undo that would touch it skips it and says so, or --strict refuses")
    func outsideDeleteIsAbsorbed() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        try todo.ok("--as", "bob", "add", "eggs")
        try todo.ok("--as", "bob", "edit", "2", "brown eggs")
        try todo.ok("--as", "alice", "add", "bread")
        let psql = try PostgresConnection(conninfo)
        try psql.query("DELETE FROM items WHERE title = 'brown eggs'")
        for person in ["alice", "bob", "carol"] {
            let history = try todo.run(["--as", person, "history"])
            #expect(history.status == 0, "\(history.stderr)")
        }
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"bread\"\n")
        #expect(try todo.titles() == ["milk"])
        let strict = try todo.run(["--as", "bob", "undo", "--strict"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stderr.contains("refused"), "\(strict.stderr)")
        let undo = try todo.run(["--as", "bob", "undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("\"brown eggs\" (someone else removed it)"), "\(undo.stderr)")
        #expect(try todo.titles() == ["milk"])
    }

    @Test("4: items truncated with psql are another writer's removal: histories read, and undo says what it could not bring back")
    func outsideTruncateIsAbsorbed() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        try todo.ok("--as", "bob", "add", "eggs")
        try todo.ok("--as", "bob", "done", "2")
        let psql = try PostgresConnection(conninfo)
        try psql.query("TRUNCATE items")
        for person in ["alice", "bob"] {
            let history = try todo.run(["--as", person, "history"])
            #expect(history.status == 0, "\(history.stderr)")
        }
        let undo = try todo.run(["--as", "bob", "undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("\"eggs\" (someone else removed it)"), "\(undo.stderr)")
        #expect(try todo.titles() == [])
        try todo.ok("--as", "alice", "add", "tea")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: add \"tea\"\n")
    }

    // MARK: Item 5

    /// The message a command gives up with after `seconds` of waiting for a lock.
    private func lockedMessage(_ conninfo: String, seconds: String) -> String {
        """
        todo: waiting for another connection to the server to release a lock on the list...
        todo: \(conninfo): another connection held a lock on the list for \(seconds) seconds; nothing was changed (TODO_LOCK_TIMEOUT sets the wait)

        """
    }

    @Test("5: the writers' advisory lock held by another connection is waited for with a word, then given up after TODO_LOCK_TIMEOUT")
    func heldAdvisoryLock() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        let holder = try PostgresConnection(conninfo)
        // Ends the holder's session (and its lock) after a while, so that a todo that waits for
        // ever fails this test instead of hanging it.
        try holder.query("SET idle_session_timeout = '15s'")
        try holder.query("SELECT pg_advisory_lock(\(TodoServerStore.writersLock))")
        let start = ContinuousClock.now
        let result = try todo.run(["--as", "alice", "add", "eggs"], environment: ["TODO_LOCK_TIMEOUT": "1.5"])
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(result.status == 1)
        #expect(result.stderr == lockedMessage(conninfo, seconds: "1.5"))
        // Reading does not take the writers' lock.
        #expect(try todo.titles() == ["milk"])
        // (The server may have ended the holder's session by now, which frees the lock too.)
        _ = try? holder.query("SELECT pg_advisory_unlock(\(TodoServerStore.writersLock))")
        try todo.ok("--as", "alice", "add", "eggs")
        #expect(try todo.titles() == ["milk", "eggs"])
    }

    @Test("5: a table locked in psql is waited for with a word, then given up after TODO_LOCK_TIMEOUT, by readers and writers")
    func lockedTable() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        let holder = try PostgresConnection(conninfo)
        try holder.query("SET idle_in_transaction_session_timeout = '15s'")
        try holder.query("BEGIN")
        try holder.query("LOCK TABLE items IN ACCESS EXCLUSIVE MODE")
        for arguments in [["add", "eggs"], ["list"]] {
            let start = ContinuousClock.now
            let result = try todo.run(["--as", "alice"] + arguments, environment: ["TODO_LOCK_TIMEOUT": "2"])
            #expect(ContinuousClock.now - start < .seconds(10))
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == lockedMessage(conninfo, seconds: "2"), "\(arguments)")
        }
        // Shorter than the moment before the word: given up without one.
        let quick = try todo.run(["--as", "alice", "list"], environment: ["TODO_LOCK_TIMEOUT": "0.2"])
        #expect(quick.status == 1)
        #expect(quick.stderr.hasSuffix("held a lock on the list for 0.2 seconds; nothing was changed (TODO_LOCK_TIMEOUT sets the wait)\n"))
        #expect(!quick.stderr.contains("waiting"))
        _ = try? holder.query("ROLLBACK")
        try todo.ok("--as", "alice", "add", "eggs")
        #expect(try todo.titles() == ["milk", "eggs"])
    }

    // MARK: Item 9

    @Test("9: names that would print like another person's are refused, from --as and TODO_USER, and nothing is written",
          arguments: ["alice ", " alice", "ali\u{00A0}ce", "ali\u{200B}ce", "\u{FEFF}alice", "\u{0430}lice", "alic\u{0435}", "al\u{03B9}ce"])
    func lookAlikeNamesAreRefused(name: String) throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        let flag = try todo.run(["--as", name, "add", "eggs"])
        #expect(flag.status == 1, "\(flag.stderr)")
        #expect(flag.stderr.hasPrefix("todo: the name given by --as "), "\(flag.stderr)")
        #expect(flag.stderr.split(separator: "\n").count == 1)
        let variable = try todo.run(["undo"], environment: ["TODO_USER": name])
        #expect(variable.status == 1, "\(variable.stderr)")
        #expect(variable.stderr.hasPrefix("todo: the name given by TODO_USER "), "\(variable.stderr)")
        let admin = try PostgresConnection(conninfo)
        #expect(try admin.query("SELECT author FROM histories ORDER BY author") == [["alice"]])
        #expect(try todo.titles(as: "alice") == ["milk"])
    }

    @Test("9: a name is one person however its accents were typed (NFC); names in one script, with inner spaces, are fine")
    func namesAreNormalized() throws {
        let (todo, _) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "Jos\u{0065}\u{0301}", "add", "milk")
        #expect(try todo.ok("--as", "Jos\u{00E9}", "undo").stdout == "Undid: add \"milk\"\n")
        try todo.ok("--as", "Анна Каренина", "add", "tea")
        try todo.ok("--as", "Mary Ann", "add", "jam")
        try todo.ok("--as", "Ζωή", "add", "bread")
        try todo.ok("--as", "李 Li", "add", "rice")
        #expect(try todo.ok("--as", "Анна Каренина", "undo").stdout == "Undid: add \"tea\"\n")
        #expect(try todo.titles() == ["jam", "bread", "rice"])
    }

    // MARK: Item 7

    @Test("7: a connection closed between the commands of a script (idle_session_timeout, a terminated session) is made again; the script goes on")
    func closedBetweenCommands() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "setup", "list")
        // The server ends the script's session whenever it is idle for half a second.
        todo.environment["TODO_DATABASE"] = conninfo + " options='-c idle_session_timeout=500'"
        let process = Process()
        process.executableURL = try Sandbox.binary()
        process.arguments = ["--as", "ana"]
        process.environment = todo.environment
        let input = Pipe()
        let errors = todo.directory.appendingPathComponent("errors-ana")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        input.fileHandleForWriting.write(Data("add one\n".utf8))
        usleep(1_500_000)
        #expect(process.isRunning)
        if process.isRunning { input.fileHandleForWriting.write(Data("add two\n".utf8)) }
        usleep(300_000)
        // And once by an administrator (57P01), as a restart does, while the script waits.
        let admin = try PostgresConnection(conninfo)
        _ = try admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        usleep(200_000)
        // A todo that stopped at the closed connection has gone: writing to it would end
        // this test process with SIGPIPE.
        #expect(process.isRunning)
        if process.isRunning { input.fileHandleForWriting.write(Data("add three\nundo\n".utf8)) }
        try input.fileHandleForWriting.close()
        let exit = process.waitForExit()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        #expect(exit == .exited(0), "\(stderr)")
        #expect(stderr.isEmpty, "\(stderr)")
        todo.environment["TODO_DATABASE"] = conninfo
        #expect(try todo.titles() == ["one", "two"])
    }

    // MARK: Item 6

    @Test("6: a role granted SELECT only, or a read-only session, lists (and shows history) without writing; a change is refused")
    func readOnlySessionsList() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "milk")
        try todo.ok("--as", "alice", "add", "eggs")
        let admin = try PostgresConnection(conninfo)
        let role = "reader_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try admin.query("CREATE ROLE \(role) LOGIN")
        try admin.query("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        let readers = [
            conninfo.replacingOccurrences(of: "user=todo", with: "user=\(role)"),
            conninfo + " options='-c default_transaction_read_only=on'",
        ]
        for reader in readers {
            let listed = try todo.run(["--as", "bob", "list"], environment: ["TODO_DATABASE": reader])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stderr.isEmpty, "\(listed.stderr)")
            #expect(listed.stdout.contains("milk") && listed.stdout.contains("eggs"), "\(listed.stdout)")
            let json = try todo.run(["--as", "alice", "list", "--json"], environment: ["TODO_DATABASE": reader])
            #expect(json.status == 0, "\(json.stderr)")
            let history = try todo.run(["--as", "alice", "history"], environment: ["TODO_DATABASE": reader])
            #expect(history.status == 0, "\(history.stderr)")
            let export = try todo.run(["--as", "bob", "export", "--json"], environment: ["TODO_DATABASE": reader])
            #expect(export.status == 0, "\(export.stderr)")
            let add = try todo.run(["--as", "bob", "add", "tea"], environment: ["TODO_DATABASE": reader])
            #expect(add.status == 1)
            #expect(add.stderr.hasPrefix("todo: ") && add.stderr.contains("nothing was changed"), "\(add.stderr)")
        }
        #expect(try admin.query("SELECT author FROM histories ORDER BY author") == [["alice"]])
        #expect(try todo.titles(as: "alice") == ["milk", "eggs"])
    }
}
