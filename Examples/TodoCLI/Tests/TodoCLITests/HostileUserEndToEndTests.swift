import Foundation
import Testing

/// The defects issue 14 lists, found by trying `todo` as a hostile user would; each is run
/// against the built binary.
@Suite("A hostile user, end to end")
struct HostileUserEndToEndTests {

    /// Runs `processes` scripts of `adds` adds each at once, half through `linked` and half
    /// through `real`; returns every acknowledged title.
    func concurrentAdds(_ todo: Sandbox, processes: Int, adds: Int, linked: String, real: String) throws -> Set<String> {
        var running: [(Process, URL)] = []
        for index in 0..<processes {
            let script = todo.directory.appendingPathComponent(".in-script-\(index)")
            try Data((1...adds).map { "add p\(index) \($0)\n" }.joined().utf8).write(to: script)
            let output = todo.directory.appendingPathComponent(".out-script-\(index)")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = try Sandbox.binary()
            process.arguments = ["--file", index % 2 == 0 ? linked : real]
            process.environment = todo.mergedEnvironment(["TODO_LOCK_TIMEOUT": "60"])
            process.standardInput = try FileHandle(forReadingFrom: script)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            running.append((process, output))
        }
        for (process, _) in running { try process.run() }
        var acknowledged = Set<String>()
        for (process, output) in running {
            #expect(process.waitForExit() == .exited(0))
            for line in try String(contentsOf: output, encoding: .utf8).split(separator: "\n") {
                if let start = line.firstIndex(of: "\"") { acknowledged.insert(String(line[start...].dropFirst().dropLast())) }
            }
        }
        return acknowledged
    }

    @Test("2: concurrent adds through a symlinked directory and the real path lose nothing", arguments: [(2, 200), (8, 200)])
    func symlinkedDirectory(processes: Int, adds: Int) throws {
        let todo = try Sandbox()
        let real = todo.directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let link = todo.directory.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real.path)
        let acknowledged = try concurrentAdds(todo, processes: processes, adds: adds,
                                              linked: link + "/todo.db", real: real.appendingPathComponent("todo.db").path)
        #expect(acknowledged.count == processes * adds)
        let result = try todo.run(["--file", real.appendingPathComponent("todo.db").path, "list", "--json"])
        let titles = try JSONDecoder().decode([ListedItem].self, from: Data(result.stdout.utf8)).map(\.title)
        #expect(titles.count == processes * adds)
        #expect(Set(titles) == acknowledged)
        for index in 0..<processes {
            #expect(titles.filter { $0.hasPrefix("p\(index) ") } == (1...adds).map { "p\(index) \($0)" }, "each script's order is kept")
        }
    }

    @Test("3: a link to a file not created yet is followed, not replaced")
    func danglingLink() throws {
        let todo = try Sandbox()
        let target = todo.directory.appendingPathComponent("target.db").path
        let link = todo.directory.appendingPathComponent("link.db").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try todo.run(["--file", link, "add", "through the link"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(FileManager.default.fileExists(atPath: target))
        #expect(try todo.run(["--file", target, "list"]).stdout == "[ ] 1 through the link\n")
    }

    @Test("5: a write-protected file is read but never written")
    func writeProtected() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        #expect(chmod(todo.file, 0o400) == 0)
        let before = try #require(todo.fileBytes())
        let result = try todo.run(["add", "eggs"])
        #expect(result.status == 1)
        #expect(result.stderr == "todo: \(todo.file): the file is write-protected; nothing was changed\n")
        #expect(todo.fileBytes() == before)
        #expect(try todo.titles() == ["milk"])
        #expect(chmod(todo.file, 0o600) == 0)
    }

    @Test("6: a failed command creates no directory, file or lock file")
    func failedCommandsLeaveNothing() throws {
        let todo = try Sandbox()
        let nested = todo.directory.appendingPathComponent("a/b/c.db").path
        let result = try todo.run(["--file", nested, "done", "1"])
        #expect(result.status == 1)
        #expect(result.stderr == "todo: there is no item 1: the list is empty\n")
        let dot = try todo.run(["--file", todo.directory.path, "add", "x"])
        #expect(dot.status == 1)
        #expect(dot.stderr.contains("not a regular file (a directory)"))
        #expect(try todo.directoryEntries() == [])
    }

    @Test("7: a path through a file is one line naming the path and the reason")
    func pathThroughAFile() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        let through = todo.file + "/sub/todo.db"
        for command in [["add", "x"], ["list"]] {
            let result = try todo.run(["--file", through] + command)
            #expect(result.status == 1)
            #expect(result.stderr == "todo: \(through): cannot use it: Not a directory\n", "\(command)")
        }
    }

    @Test("8: a failed write to standard output exits 1 with a message", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func outputErrors() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        let process = Process()
        process.executableURL = try Sandbox.binary()
        process.arguments = ["list", "--json"]
        process.environment = todo.environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let errors = todo.directory.appendingPathComponent(".err-full")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        #expect(process.waitForExit() == .exited(1))
        #expect(try String(contentsOf: errors, encoding: .utf8) == "todo: cannot write to standard output: No space left on device\n")
    }

    /// Found by Fuzz/fault-injection: `todo add c | true`-like runs, whose reader is gone,
    /// were killed by SIGPIPE (exit 141 in a shell) instead of reporting the failed write.
    @Test("8b: output to a pipe whose reader is gone exits 1, with the change made", arguments: ["stdout", "stderr"])
    func closedPipe(stream: String) throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        let process = Process()
        process.executableURL = try Sandbox.binary()
        // `done 9` fails, so it writes to standard error; `add c` succeeds and writes to output.
        process.arguments = stream == "stdout" ? ["add", "c"] : ["done", "9"]
        process.environment = todo.environment
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let other = todo.directory.appendingPathComponent(".other-\(stream)")
        _ = FileManager.default.createFile(atPath: other.path, contents: nil)
        if stream == "stdout" {
            process.standardOutput = pipe
            process.standardError = try FileHandle(forWritingTo: other)
        } else {
            process.standardOutput = try FileHandle(forWritingTo: other)
            process.standardError = pipe
        }
        try process.run()
        #expect(process.waitForExit() == .exited(1))
        if stream == "stdout" {
            #expect(try String(contentsOf: other, encoding: .utf8) == "todo: cannot write to standard output: Broken pipe\n")
            #expect(try todo.titles() == ["milk", "c"], "the change is made: only its confirmation was lost")
        } else {
            #expect(try String(contentsOf: other, encoding: .utf8).isEmpty)
            #expect(try todo.titles() == ["milk"])
        }
    }

    @Test("9: a held lock is waited for with a word, then given up after TODO_LOCK_TIMEOUT; reading goes on")
    func heldLock() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        let holder = try SQLiteFile(todo.file)
        try holder.execute("BEGIN IMMEDIATE")
        let result = try todo.run(["add", "eggs"], environment: ["TODO_LOCK_TIMEOUT": "1.5"])
        #expect(result.status == 1)
        #expect(result.stderr == """
            todo: waiting for another todo to finish with \(todo.file)...
            todo: \(todo.file): another todo kept the file locked for 1.5 seconds; nothing was changed (TODO_LOCK_TIMEOUT sets the wait)

            """)
        // Readers never wait for a writer.
        #expect(try todo.titles() == ["milk"])
        try holder.execute("COMMIT")
        try todo.ok("add", "eggs")
        #expect(try todo.titles() == ["milk", "eggs"])
    }

    @Test("10: control characters and invalid UTF-8 are refused; stored ones are shown escaped")
    func controlCharacters() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        for command in [["add", "\u{1B}[2J"], ["edit", "1", "a\u{7}b"], ["tag", "t\u{1B}"]] {
            let result = try todo.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("cannot contain control characters"), "\(result.stderr)")
        }
        var script = Data("add ok\nadd bad ".utf8)
        script.append(contentsOf: [0xFF, 0xFE, 0x0A])
        let process = Process()
        process.executableURL = try Sandbox.binary()
        process.environment = todo.environment
        let input = todo.directory.appendingPathComponent(".in-invalid")
        try script.write(to: input)
        process.standardInput = try FileHandle(forReadingFrom: input)
        let errors = todo.directory.appendingPathComponent(".err-invalid")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        #expect(process.waitForExit() == .exited(1))
        #expect(try String(contentsOf: errors, encoding: .utf8).contains("line 2: a title must be valid UTF-8 text"))
        #expect(try todo.titles() == ["milk", "ok"])

        // Written by another program, which also dropped the history that no longer fits.
        try SQLiteFile(todo.file).execute("""
            UPDATE items SET title = 'evil' || char(27) || '[2J' WHERE title = 'ok';
            DELETE FROM steps; DELETE FROM meta WHERE key = 'outline'
            """)
        #expect(try todo.ok("list").stdout == "[ ] 1 milk\n[ ] 2 evil\\u{1B}[2J\n")
        #expect(try todo.ok("rm", "2").stdout == "Removed 2: \"evil\\u{1B}[2J\"\n")
    }

    @Test("11: --json output has one shape: every key present, null when empty, [] for nothing")
    func jsonShapes() throws {
        let todo = try Sandbox()
        #expect(try todo.ok("list", "--json").stdout == "[]\n")
        try todo.ok("add", "milk")
        #expect(try todo.ok("list", "--done", "--json").stdout == "[]\n")
        let history = try todo.ok("history", "--json").stdout
        let document = try #require(try JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any])
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.first?["label"] is NSNull)
        let keys: Set = ["version", "parent", "branches", "label", "tags", "time", "changeCount", "undone", "present"]
        #expect(versions.allSatisfy { Set($0.keys) == keys })
        #expect(versions.first?["parent"] is NSNull)
        #expect(versions.first?["time"] is NSNull)
    }

    @Test("12: a missing argument is a usage error (exit 2) for every command", arguments: [
        ["add"], ["edit", "1"], ["edit"], ["done"], ["undone"], ["rm"], ["move", "1"], ["tag"], ["import", "--json"],
    ])
    func missingArguments(_ command: [String]) throws {
        let todo = try Sandbox()
        let result = try todo.run(command)
        #expect(result.status == 2)
        #expect(result.stderr.hasSuffix("(run \"todo help\" for usage)\n"), "\(result.stderr)")
    }

    @Test("4: a number is no tag name, and the message says why without a wrong example")
    func numericTag() throws {
        let todo = try Sandbox()
        let result = try todo.run(["tag", "-3"])
        #expect(result.status == 1)
        #expect(result.stderr == "todo: a tag name cannot be a number: undo and redo read a number as a count of steps\n")
    }

    /// The tags `todo history --json` gives each version.
    func tagsByVersion(_ todo: Sandbox) throws -> [UInt64: [String]] {
        struct Version: Decodable { var version: UInt64; var tags: [String] }
        struct Document: Decodable { var versions: [Version] }
        let history = try todo.ok("history", "--json").stdout
        return Dictionary(uniqueKeysWithValues: try JSONDecoder().decode(Document.self, from: Data(history.utf8)).versions.map { ($0.version, $0.tags) })
    }

    @Test("4: tagging a version that has a tag keeps both, at the start and after a step, and says so")
    func secondTagKeepsTheFirst() throws {
        let todo = try Sandbox()
        #expect(try todo.ok("tag", "x").stdout == "Tagged the present \"x\"\n")
        #expect(try todo.ok("tag", "y").stdout == "Tagged the present \"y\" (it keeps its tag \"x\")\n")
        #expect(try todo.ok("history").lines == ["0 to undo, 0 to redo (history limit 100)", "* v0  (start)  [x, y]"])
        try todo.ok("add", "milk")
        try todo.ok("tag", "a")
        try todo.ok("tag", "b")
        #expect(try todo.ok("tag", "x").stdout == "Moved tag \"x\" to the present (it keeps its tags \"a\", \"b\")\n")
        #expect(try tagsByVersion(todo) == [0: ["y"], 1: ["a", "b", "x"]])
        #expect(try todo.ok("undo", "y").stdout == "Undid 1 step back to \"y\": add \"milk\"\n")
        #expect(try todo.ok("redo", "a").stdout == "Redid 1 step up to \"a\": add \"milk\"\n")
        try todo.ok("begin")
        try todo.ok("tag", "inside")
        #expect(try todo.ok("history").lines.last == "* v1  (start)  [a, b, x, inside]", "a scope's start shows every tag")
    }

    @Test("4: a tag moved inside a scope is back where it was after rollback; commit keeps the move")
    func movedTagRolledBack() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("tag", "t")
        try todo.ok("begin")
        try todo.ok("add", "eggs")
        #expect(try todo.ok("tag", "t").stdout == "Moved tag \"t\" to the present\n")
        try todo.ok("add", "bread")
        try todo.ok("tag", "t")
        #expect(try todo.ok("rollback").stdout == "Rolled back 2 changes\n")
        #expect(try tagsByVersion(todo) == [0: [], 1: ["t"]])
        #expect(try todo.ok("undo", "t").stdout == "Already at tag \"t\"\n")
        try todo.ok("add", "jam")
        #expect(try todo.ok("undo", "t").stdout == "Undid 1 step back to \"t\": add \"jam\"\n")

        try todo.ok("begin")
        try todo.ok("add", "butter")
        try todo.ok("tag", "t")
        #expect(try todo.ok("commit").stdout == "Committed 1 change as one undo step\n")
        let tags = try tagsByVersion(todo)
        #expect(tags[1] == [] && tags.values.filter { $0 == ["t"] }.count == 1, "\(tags)")
        #expect(try todo.ok("undo", "t").stdout == "Already at tag \"t\"\n")
    }

    @Test("4: redo to the present's own tag says it is already there, at the start, after undo and in a scope")
    func redoToThePresentsTag() throws {
        let todo = try Sandbox()
        try todo.ok("tag", "start")
        #expect(try todo.ok("redo", "start").stdout == "Already at tag \"start\"\n")
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("tag", "t")
        #expect(try todo.ok("redo", "t").stdout == "Already at tag \"t\"\n")
        try todo.ok("undo")
        try todo.ok("redo")
        #expect(try todo.ok("redo", "t").stdout == "Already at tag \"t\"\n")
        try todo.ok("begin")
        #expect(try todo.ok("redo", "t").stdout == "Already at tag \"t\"\n", "the scope starts on the version tagged t")
        try todo.ok("add", "jam")
        let behind = try todo.run(["redo", "t"])
        #expect(behind.status == 1 && behind.stderr.contains(#"tag "t" is behind the present: use "undo t""#))
    }

    @Test("14: an import with two items sharing an id is refused")
    func duplicateIDs() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        let file = todo.directory.appendingPathComponent("dup.json")
        let id = UUID().uuidString
        try Data(#"{"format":"todo-export","version":1,"items":[{"id":"\#(id)","title":"a"},{"title":"b"},{"id":"\#(id)","title":"c"}]}"#.utf8).write(to: file)
        let result = try todo.run(["import", "--json", file.path])
        #expect(result.status == 1)
        #expect(result.stderr == "todo: \(file.path): items 1 and 3 share the id \(id)\n")
        #expect(try todo.titles() == ["milk"])
    }

    @Test("1: a scope longer than the history limit never locks the file: every command keeps working")
    func noLockOut() throws {
        let todo = try Sandbox()
        let limited = ["TODO_HISTORY_LIMIT": "1"]
        for command in [["begin"], ["add", "a"], ["add", "b"]] {
            #expect(try todo.run(command, environment: limited).status == 0, "\(command)")
        }
        // Both adds, though the limit kept one step of the scope: the other is in its start.
        #expect(try todo.run(["commit"], environment: limited).stdout == "Committed 2 changes as one undo step\n")
        let rolledBack = try Sandbox()
        for command in [["begin"], ["add", "a"], ["add", "b"]] {
            #expect(try rolledBack.run(command, environment: limited).status == 0, "\(command)")
        }
        #expect(try rolledBack.run(["rollback"], environment: limited).stdout == "Rolled back 2 changes\n")
        #expect(try rolledBack.titles().isEmpty)
        #expect(try todo.titles() == ["a", "b"])
        #expect(try todo.ok("add", "c").stdout == "Added 3: \"c\"\n")
        #expect(try todo.ok("undo").stdout == "Undid: add \"c\"\n")

        let other = try Sandbox()
        let script = "begin\n" + (1...101).map { "add a\($0)\n" }.joined() + "commit\n"
        #expect(try other.ok(stdin: script).lines.last == "Committed 101 changes as one undo step")
        #expect(try other.ok("add", "after").stdout == "Added 102: \"after\"\n")
        #expect(try other.ok("undo", "2").stdout.hasPrefix("Undid 2 steps: add \"after\"; add \"a1\" (+100 more)"))
        #expect(try other.titles().isEmpty)
    }

    @Test("15: a lowered history limit applies on every write, redo included")
    func lowerLimitOnRedo() throws {
        let todo = try Sandbox()
        try todo.ok(stdin: (1...10).map { "add i\($0)\n" }.joined())
        try todo.ok("undo", "4")
        let result = try todo.run(["--history-limit", "3", "redo", "2"])
        #expect(result.status == 0)
        #expect(try SQLiteFile(todo.file).integer("SELECT count(*) FROM steps") == 3)
        #expect(try todo.ok("history").stdout.hasPrefix("3 to undo, 0 to redo"))
    }
}
