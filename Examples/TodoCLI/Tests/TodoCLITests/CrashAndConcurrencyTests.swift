import Foundation
import Testing

/// Nothing acknowledged is ever lost: not to a process killed mid-write, not to another
/// process writing the same file.
@Suite("Crashes and concurrent writers, end to end")
struct CrashAndConcurrencyTests {

    @Test("SIGKILL in the middle of a stream of writes leaves a readable file with every acknowledged change",
          arguments: [5, 17, 40])
    func killedMidStream(acknowledgementsBeforeKill: Int) throws {
        let todo = try Sandbox()
        try todo.ok("add", "existing")
        let process = Process()
        process.executableURL = try Sandbox.binary()
        process.environment = todo.environment
        let input = Pipe()
        let outputURL = todo.directory.appendingPathComponent(".out-kill")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // More lines than it can handle before the kill; the pipe holds them all (< 64 KiB),
        // and stays open, so the script never ends on its own.
        let lines = (1...2000).map { "add item \($0)\n" }.joined()
        input.fileHandleForWriting.write(Data(lines.utf8))

        let deadline = Date().addingTimeInterval(30)
        func acknowledged() -> [String] {
            let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }
        while acknowledged().count < acknowledgementsBeforeKill, Date() < deadline {
            usleep(2_000)
        }
        kill(process.processIdentifier, SIGKILL)
        let exit = process.waitForExit()
        try output.close()
        try input.fileHandleForWriting.close()
        #expect(exit == .killed(signal: SIGKILL))

        // Every line on stdout was printed after its change was on disk.
        let acks = acknowledged()
        #expect(acks.count >= acknowledgementsBeforeKill)
        let titles = try todo.titles()
        #expect(titles.first == "existing")
        for (index, ack) in acks.enumerated() {
            #expect(ack == "Added \(index + 2): \"item \(index + 1)\"")
            #expect(titles.contains("item \(index + 1)"), "acknowledged \(ack) but it is not in the file")
        }
        // At most the one change in flight at the kill may be there unacknowledged.
        #expect(titles.count == acks.count + 1 || titles.count == acks.count + 2)

        // The history is intact too, and SQLite's log files are gone once todo exits.
        #expect(try todo.ok("undo").lines.first?.hasPrefix("Undid: add \"item ") == true)
        #expect(try todo.directoryEntries() == ["todo.db"])
        #expect(try todo.ok("history").lines.count > 2)
    }

    /// Found when the full suite ran on a busy machine: two first runs on a new file both
    /// switched it to the write-ahead log and waited for each other until the lock timeout.
    @Test("Concurrent first runs on a file that does not exist yet all succeed", arguments: 1...6)
    func concurrentFirstRuns(round: Int) throws {
        let todo = try Sandbox()
        let file = todo.directory.appendingPathComponent("new/todo.db").path
        let processes = try (0..<4).map { index in
            let process = Process()
            process.executableURL = try Sandbox.binary()
            process.arguments = ["--file", file, "add", "item \(index)"]
            process.environment = todo.mergedEnvironment(["TODO_LOCK_TIMEOUT": "20"])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            return process
        }
        for process in processes { try process.run() }
        for process in processes {
            let exit = process.waitForExit()
            #expect(exit == .exited(0), "round \(round)")
        }
        let listed = try todo.ok("--file", file, "list").lines
        #expect(Set(listed.map { String($0.suffix(6)) }) == Set((0..<4).map { "item \($0)" }), "round \(round)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: todo.directory.appendingPathComponent("new").path)
        #expect(!leftovers.contains { $0.contains("creating") })
    }

    @Test("Two processes adding 50 items each to the same file lose nothing")
    func concurrentWriters() throws {
        let todo = try Sandbox()
        try todo.ok("add", "first")
        func writer(_ name: String) throws -> (Process, URL) {
            let script = todo.directory.appendingPathComponent("script-\(name)")
            try Data((1...50).map { "add \(name) \($0)\n" }.joined().utf8).write(to: script)
            let process = Process()
            process.executableURL = try Sandbox.binary()
            process.environment = todo.environment
            process.standardInput = try FileHandle(forReadingFrom: script)
            process.standardOutput = FileHandle.nullDevice
            let errors = todo.directory.appendingPathComponent(".err-\(name)")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
            return (process, errors)
        }
        let (a, aErrors) = try writer("a")
        let (b, bErrors) = try writer("b")
        try a.run()
        try b.run()
        let (aExit, bExit) = (a.waitForExit(), b.waitForExit())
        #expect(aExit == .exited(0), "\(String(describing: try? String(contentsOf: aErrors, encoding: .utf8)))")
        #expect(bExit == .exited(0), "\(String(describing: try? String(contentsOf: bErrors, encoding: .utf8)))")

        let titles = try todo.titles()
        #expect(titles.count == 101)
        let expected = Set(["first"] + (1...50).flatMap { ["a \($0)", "b \($0)"] })
        #expect(Set(titles) == expected)
        // Each writer's items stay in its own order.
        #expect(titles.filter { $0.hasPrefix("a ") } == (1...50).map { "a \($0)" })
        #expect(titles.filter { $0.hasPrefix("b ") } == (1...50).map { "b \($0)" })
        // The shared history holds the last 100 steps of both.
        #expect(try todo.ok("history", "--json").stdout.contains(#""undoCount" : 100"#))
    }

    @Test("Concurrent one-shot commands and a script interleave without losing updates")
    func oneShotsAndScript() throws {
        let todo = try Sandbox()
        let script = todo.directory.appendingPathComponent("script")
        try Data((1...30).map { "add s\($0)\n" }.joined().utf8).write(to: script)
        let scripted = Process()
        scripted.executableURL = try Sandbox.binary()
        scripted.environment = todo.environment
        scripted.standardInput = try FileHandle(forReadingFrom: script)
        scripted.standardOutput = FileHandle.nullDevice
        scripted.standardError = FileHandle.nullDevice
        try scripted.run()
        for index in 1...10 {
            #expect(try todo.run(["add", "o\(index)"]).status == 0)
        }
        #expect(scripted.waitForExit() == .exited(0))
        #expect(Set(try todo.titles()) == Set((1...30).map { "s\($0)" } + (1...10).map { "o\($0)" }))
    }
}
