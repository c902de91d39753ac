import Foundation
import Testing
@testable import TodoKit

/// `todo watch` (issue 35, beyond the fixes): others' changes printed as they are committed,
/// with their authors, by a second `todo` process listening on the throwaway server.
@Suite("todo watch, end to end", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct WatchEndToEndTests {

    /// A running `todo watch`, its output and errors going to files, its input a pipe kept
    /// open (its end would stop the watch).
    struct Watcher {
        var process: Process
        var output: URL
        var errors: URL
        var input: Pipe

        var stdout: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// Waits up to `seconds` for `condition`; whether it held.
        @discardableResult
        func wait(seconds: Double = 20, until condition: () -> Bool) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if condition() { return true }
                usleep(20_000)
            }
            return condition()
        }
    }

    private func startWatcher(_ todo: Sandbox, _ arguments: [String]) throws -> Watcher {
        let output = todo.directory.appendingPathComponent("watch-output-\(UUID().uuidString)")
        let errors = todo.directory.appendingPathComponent("watch-errors-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = try Sandbox.binary()
        process.arguments = arguments
        process.environment = todo.environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let watcher = Watcher(process: process, output: output, errors: errors, input: input)
        // Listening once it says so: changes before that are the list it starts from.
        #expect(watcher.wait { watcher.stderr.contains("watching") }, "\(watcher.stderr)")
        return watcher
    }

    @Test("watch prints each change another person commits, with who made it: adds, edits, removals, moves with the item's id, done marks")
    func printsOthersChanges() throws {
        let (todo, _) = try Sandbox.onNewServerDatabase()
        for title in ["eggs", "bread", "tea"] { try todo.ok("--as", "alice", "add", title) }
        let watcher = try startWatcher(todo, ["--as", "walt", "watch", "--count", "5", "--for", "60"])
        defer { if watcher.process.isRunning { watcher.process.terminate() } }
        // One at a time, each seen before the next: each line then names one commit.
        func change(_ arguments: String..., lines: Int) throws {
            let result = try todo.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(watcher.wait { watcher.lines.count >= lines }, "\(watcher.stdout)\(watcher.stderr)")
        }
        try change("--as", "bob", "add", "milk", lines: 1)
        try change("--as", "carol", "edit", "1", "duck eggs", lines: 2)
        try change("--as", "alice", "rm", "3", lines: 3)
        try change("--as", "dave", "move", "2", "1", lines: 4)
        try change("--as", "erin", "done", "1", lines: 5)
        #expect(watcher.process.waitForExit() == .exited(0), "\(watcher.stderr)")
        let lines = watcher.lines
        #expect(lines.count == 5, "\(lines)")
        guard lines.count == 5 else { return }
        #expect(lines[0] == "bob added 4 \"milk\"")
        #expect(lines[1] == "carol edited 1 \"eggs\" → \"duck eggs\"")
        #expect(lines[2] == "alice removed \"tea\"")
        // The item's short id, as `list` shows it: its position is no longer what it was.
        let listed = try todo.ok("--as", "reader", "list").stdout
        let id = try #require(listed.split(separator: "\n").first { $0.contains("bread") }.flatMap { line in
            line.split(separator: " ").first { $0.count >= 4 && $0.allSatisfy(\.isHexDigit) && $0.contains(where: \.isLetter) }
        }, "\(listed)")
        #expect(lines[3] == "dave moved \"bread\" (\(String(id))) from 2 to 1")
        #expect(lines[4] == "erin marked 1 \"bread\" done")
    }

    @Test("watch hears a change made in psql when it commits, as someone outside todo")
    func hearsOutsideChanges() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "eggs")
        let watcher = try startWatcher(todo, ["--as", "walt", "watch", "--count", "1", "--for", "60"])
        defer { if watcher.process.isRunning { watcher.process.terminate() } }
        // The watcher listens once its session's last statement is its LISTEN.
        let admin = try PostgresConnection(conninfo)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, try admin.query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'") == [["0"]] {
            Thread.sleep(forTimeInterval: 0.1)
        }
        try admin.query("UPDATE items SET title = 'brown eggs'")
        #expect(watcher.wait { watcher.lines.count >= 1 }, "\(watcher.stdout)\(watcher.stderr)")
        _ = watcher.process.waitForExit()
        #expect(watcher.lines == ["someone outside todo edited 1 \"eggs\" → \"brown eggs\""], "\(watcher.stderr)")
    }

    @Test("watch says what it missed while its connection was down, once it is made again")
    func reconnectsAndSaysWhatItMissed() throws {
        let (todo, conninfo) = try Sandbox.onNewServerDatabase()
        try todo.ok("--as", "alice", "add", "tea")
        let admin = try PostgresConnection(conninfo)
        // carol's store, connected before connections are refused: her change is made while
        // the watcher cannot get back in, so it can only learn of it by comparing versions.
        let before = Set(try admin.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database()").compactMap { $0[0] })
        let carol = TodoServerStore(conninfo: conninfo, author: "carol", historyLimit: 100)
        let session = TodoSession(storage: carol, style: .plain)
        _ = try session.run(.list(.all, json: false))
        let carolsPids = try admin.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            .compactMap { $0[0] }.filter { !before.contains($0) }
        let watcher = try startWatcher(todo, ["--as", "walt", "watch", "--count", "2", "--for", "60"])
        defer {
            if watcher.process.isRunning { watcher.process.terminate() }
        }
        try todo.ok("--as", "bob", "add", "milk")
        #expect(watcher.wait { watcher.lines.count >= 1 }, "\(watcher.stderr)")
        let database = try #require(try admin.query("SELECT current_database()").first?[0] ?? nil)
        // As a server restart does: the watcher's connection ends, and for a while no new one
        // is let in. (The shared throwaway server itself is not restarted: other tests run on
        // it at the same time.) From another database: no session may lock itself out.
        let outside = try PostgresConnection(try ThrowawayPostgres.conninfo())
        try outside.query("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
        defer { _ = try? outside.query("ALTER DATABASE \(database) ALLOW_CONNECTIONS true") }
        let keep = "{" + (carolsPids + [try admin.query("SELECT pg_backend_pid()").first?[0] ?? ""]).joined(separator: ",") + "}"
        try outside.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND NOT (pid = ANY($2::int[]))", [database, keep])
        #expect(watcher.wait { watcher.stderr.contains("lost the connection; reconnecting") || watcher.stderr.contains("lost the connection to the server; reconnecting") }, "\(watcher.stderr)")
        _ = try session.run(.add(title: "eggs"))
        try outside.query("ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
        #expect(watcher.process.waitForExit() == .exited(0), "\(watcher.stderr)")
        #expect(watcher.lines == ["bob added 2 \"milk\"", "carol added 3 \"eggs\""], "\(watcher.stdout)\(watcher.stderr)")
        #expect(watcher.stderr.contains("reconnected; 1 change while away:"), "\(watcher.stderr)")
    }

    @Test("watch on a file says it needs a shared list on a server, and exits 1")
    func refusedOnAFile() throws {
        let todo = try Sandbox()
        let result = try todo.run(["watch", "--for", "1"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("watch needs a list shared on a server"), "\(result.stderr)")
    }

    @Test("watch stops when its standard input ends")
    func stopsAtTheEndOfInput() throws {
        let (todo, _) = try Sandbox.onNewServerDatabase()
        let started = Date()
        let result = try todo.run(["--as", "walt", "watch", "--for", "30"], stdin: "")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("the shell shows, before a prompt, what others changed since the last one, and not its own changes")
    func shellShowsOthersChanges() throws {
        let (_, conninfo) = try Sandbox.onNewServerDatabase()
        let mine = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        let bob = TodoSession(storage: TodoServerStore(conninfo: conninfo, author: "bob", historyLimit: 100), style: .plain)
        let console = RecordingConsole()
        let shell = Shell(session: TodoSession(storage: mine, style: .plain), console: console, isInteractive: true, keepGoing: false, errorStyle: .plain)
        var lines = ["add tea", "list", "list"]
        var prompts = 0
        var outputAtPrompt: [String] = []
        _ = shell.run { (_) throws(TodoError) -> String? in
            prompts += 1
            outputAtPrompt.append(console.output)
            if prompts == 2 { _ = try? bob.run(.add(title: "milk")) }
            return lines.isEmpty ? nil : lines.removeFirst()
        }
        #expect(!outputAtPrompt[1].contains("added"), "\(console.output)")
        #expect(outputAtPrompt[2].hasSuffix("bob added 2 \"milk\"\n"), "\(console.output)")
        #expect(!console.output.contains("alice added"), "\(console.output)")
    }
}
