import Foundation
import Testing
import TodoKit

/// The defects of issue 27, found by using `todo` as a careless and a hostile user would;
/// each test failed before its fix.
@Suite("Defects found by trying to break todo (issue 27)")
struct BrokenByHandEndToEndTests {

    /// Item 3: `list` with `TODO_HISTORY_LIMIT=1` on a file of the first todo imported it
    /// with the limit applied, dropping all but one step of its history.
    @Test("a read-only command that imports a file of the first todo keeps its whole history")
    func importKeepsEveryStep() throws {
        let todo = try Sandbox()
        try FileManager.default.copyItem(at: EarlierVersionFileEndToEndTests.original, to: URL(fileURLWithPath: todo.file))
        let first = try todo.run(["list"], environment: ["TODO_HISTORY_LIMIT": "1"])
        #expect(first.status == 0)
        #expect(first.stderr.contains("(3 items, 6 history steps)"), "\(first.stderr)")
        #expect(try todo.ok("history").stdout == EarlierVersionFileEndToEndTests.history)
    }

    /// Item 18: options were read after the command word, so a second `--file` won.
    @Test("a --file after the command word is refused, and nothing is written to either file")
    func optionsEndAtTheCommandWord() throws {
        let todo = try Sandbox()
        let a = todo.directory.appendingPathComponent("a.db").path
        let b = todo.directory.appendingPathComponent("b.db").path
        let refused = try todo.run(["--file", a, "add", "pay", "--file", b])
        // "add" takes its title word for word: the second --file is part of it.
        #expect(refused.status == 0)
        #expect(refused.stdout == "Added 1: \"pay --file \(b)\"\n")
        #expect(!FileManager.default.fileExists(atPath: b))
        let listed = try todo.run(["--file", a, "list", "--file", b])
        #expect(listed.status == 2)
        #expect(listed.stderr.contains("--file must come before the command word"))
        #expect(!FileManager.default.fileExists(atPath: b))
        #expect(try todo.ok("add", "buy", "milk", "-h").stdout == "Added 1: \"buy milk -h\"\n")
    }

    /// Item 2: in WAL mode an acknowledged change could live only in `todo.db-wal` while
    /// another `todo` (a script reading a pipe) kept the database open; deleting the `-wal`
    /// and `-shm` files between five adds left one of them.
    @Test("an acknowledged change is in the database file itself: deleting files beside it loses nothing")
    func acknowledgedChangesAreInTheFile() throws {
        let todo = try Sandbox()
        try todo.ok("add", "first")
        // A script that keeps the database open, as a second todo reading a pipe does.
        let script = Process()
        script.executableURL = try Sandbox.binary()
        script.environment = todo.environment
        let input = Pipe()
        let outputURL = todo.directory.appendingPathComponent(".out-script")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        script.standardInput = input
        script.standardOutput = try FileHandle(forWritingTo: outputURL)
        script.standardError = FileHandle.nullDevice
        try script.run()
        input.fileHandleForWriting.write(Data("list\n".utf8))
        // Its first line printed: it has the database open.
        for _ in 0..<1_000 where (FileManager.default.contents(atPath: outputURL.path) ?? Data()).isEmpty {
            usleep(10_000)
        }
        #expect(FileManager.default.contents(atPath: outputURL.path) == Data("[ ] 1 first\n".utf8))
        for number in 1...5 {
            try todo.ok("add", "item \(number)")
            for suffix in ["-wal", "-shm"] { unlink(todo.file + suffix) }
        }
        try input.fileHandleForWriting.close()
        _ = script.waitForExit()
        #expect(try todo.titles() == ["first"] + (1...5).map { "item \($0)" })
    }

    /// Runs `todo` in `todo` as a user who does not own the data folder (nobody, when the
    /// tests run as root, which ignores permissions), with the data file in `folder`.
    func asAnotherUser(_ todo: Sandbox) throws -> String {
        let folder = todo.directory.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if geteuid() == 0 {
            #expect(chown(folder, 65_534, 65_534) == 0)
            todo.launcher = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        }
        todo.environment["TODO_FILE"] = folder + "/todo.db"
        return folder
    }

    /// Item 5: a `list` while the file was read-only left a `-shm` file that made every
    /// later write fail as "write-protected", permissions restored or not.
    @Test("a read-only period leaves nothing behind that blocks writes afterwards", .enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func writableAgainAfterAReadOnlyPeriod() throws {
        let todo = try Sandbox()
        let folder = try asAnotherUser(todo)
        let file = folder + "/todo.db"
        try todo.ok("add", "one")
        #expect(chmod(file, 0o444) == 0)
        #expect(try todo.ok("list").stdout == "[ ] 1 one\n")
        let refused = try todo.run(["add", "two"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("write-protected"))
        #expect(chmod(file, 0o644) == 0)
        #expect(try todo.ok("add", "two").stdout == "Added 2: \"two\"\n")
        #expect(try todo.titles() == ["one", "two"])
    }

    /// Item 6: in WAL mode even a reader needs to create the `-shm` file beside the database,
    /// so a database in a folder this user may only read could not be listed.
    @Test("a database in a read-only folder can be read", .enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func readableInAReadOnlyFolder() throws {
        let todo = try Sandbox()
        let folder = try asAnotherUser(todo)
        try todo.ok("add", "one")
        try todo.ok("tag", "start")
        #expect(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o755) }
        #expect(try todo.ok("list").stdout == "[ ] 1 one\n")
        #expect(try todo.ok("history").stdout.contains("[start]"))
        let refused = try todo.run(["add", "two"])
        #expect(refused.status == 1)
        #expect(try todo.titles() == ["one"])
    }

    /// Item 1: under a history limit lower than a scope's size, the scope's first step
    /// pushed the step before `begin` out of the history, so after a rollback there was
    /// nothing to undo. A scope never costs anything older than its own start; ending it says
    /// what the limit then drops.
    @Test("a scope under a low history limit keeps the step before it until it ends")
    func scopeKeepsThePreScopeStep() throws {
        let todo = try Sandbox()
        todo.environment["TODO_HISTORY_LIMIT"] = "1"
        try todo.ok("add", "a")
        try todo.ok("begin")
        try todo.ok("add", "b")
        try todo.ok("add", "c")
        #expect(try todo.ok("rollback").stdout == "Rolled back 2 changes\n")
        #expect(try todo.ok("undo").stdout == "Undid: add \"a\"\n")
        #expect(try todo.titles() == [])

        try todo.ok("redo")
        try todo.ok("begin")
        try todo.ok("add", "b")
        try todo.ok("add", "c")
        #expect(try todo.ok("commit").stdout == "Committed 2 changes as one undo step; the history limit (1) dropped the oldest step before it\n")
        #expect(try todo.ok("undo").stdout == "Undid: add \"b\" (+1 more)\n")
        #expect(try todo.ok("undo").stdout == "Nothing to undo\n")
        #expect(try todo.titles() == ["a"])
    }

    /// Item 4: a script that failed inside `begin` left the scope open without a word, and
    /// later one-shot commands joined it unseen.
    @Test("a scope left open by a script is reported at its end and by every command until it is closed")
    func openScopeReported() throws {
        let todo = try Sandbox()
        let stopped = try todo.run([], stdin: "begin\nadd milk\ndone 7\nadd eggs\n")
        #expect(stopped.status == 1)
        #expect(stopped.stderr == "todo: line 3: there is no item 7: the list has 1 item\n" + Sandbox.scopeNote(level: 1))
        let kept = try todo.run(["--keep-going"], stdin: "begin\ndone 9\nadd bread\n")
        #expect(kept.status == 1)
        #expect(kept.stderr == "todo: line 2: there is no item 9: the list has 1 item\n" + Sandbox.scopeNote(level: 2))
        for command in [["list"], ["add", "jam"], ["history"], ["undo"], ["list", "--json"]] {
            let result = try todo.run(command)
            #expect(result.status == 0)
            #expect(result.stderr == Sandbox.scopeNote(level: 2), "\(command)")
        }
        #expect(try todo.run(["commit"]).stderr == Sandbox.scopeNote(level: 1))
        let closed = try todo.run(["rollback"])
        #expect(closed.status == 0 && closed.stderr.isEmpty)
        #expect(try todo.run(["list"]).stderr.isEmpty)
        #expect(try todo.titles() == [])
        // A script that closes its scope says nothing.
        #expect(try todo.run([], stdin: "begin\nadd x\ncommit\n").stderr.isEmpty)
    }

    /// Item 10: `earlier`/`later` past either end exited 1 ("the current scope has 0").
    @Test("earlier and later past either end stop there, say so, and exit 0")
    func earlierAndLaterClamp() throws {
        let todo = try Sandbox()
        #expect(try todo.ok("earlier").stdout == "Already at the earliest version of this scope, v0: (start)\n")
        #expect(todo.fileBytes() == nil, "a move that changes nothing creates no file")
        try todo.ok("add", "a")
        try todo.ok("add", "b")
        #expect(try todo.ok("earlier", "5").stdout == "Went to v0: (start) (the earliest version of this scope: 2 of the 5 asked for)\n")
        #expect(try todo.ok("earlier").stdout == "Already at the earliest version of this scope, v0: (start)\n")
        #expect(try todo.ok("later", "5").stdout == "Went to v2: add \"b\" (the latest version of this scope: 2 of the 5 asked for)\n")
        #expect(try todo.ok("later").stdout == "Already at the latest version of this scope, v2: add \"b\"\n")
        #expect(try todo.titles() == ["a", "b"])
    }

    /// Item 11: a version number too large for any version was read as a tag name.
    @Test("goto a version number too large for any version says there is no such version")
    func hugeVersionNumber() throws {
        let todo = try Sandbox()
        try todo.ok("add", "a")
        let result = try todo.run(["goto", "v18446744073709551616"])
        #expect(result.status == 1)
        #expect(result.stderr == "todo: there is no version v18446744073709551616 (\"todo history\" shows them)\n")
    }

    /// Item 12: `--file notes/` with nothing there created a regular file `notes`, which the
    /// same path then failed to reach.
    @Test("a path ending in a slash names a folder: refused, and nothing is created")
    func trailingSlash() throws {
        let todo = try Sandbox()
        // Absolute paths: a relative one would be resolved in the test runner's folder.
        let notes = todo.directory.appendingPathComponent("notes").path
        for path in [notes + "/", notes + "//", notes + "/."] {
            let result = try todo.run(["--file", path, "add", "x"])
            #expect(result.status == 1, "\(path)")
            #expect(result.stderr.contains("a folder"), "\(result.stderr)")
        }
        let environment = try todo.run(["add", "x"], environment: ["TODO_FILE": todo.directory.appendingPathComponent("notes").path + "/"])
        #expect(environment.status == 1)
        #expect(try todo.directoryEntries() == [])
    }

    /// Item 15: bidirectional overrides were accepted and printed raw, so `list` could show
    /// a title in another order than it is stored.
    @Test("bidirectional formatting characters are refused in new titles and escaped on output")
    func bidirectionalOverrides() throws {
        let todo = try Sandbox()
        for character in ["\u{202E}", "\u{2066}", "\u{200F}", "\u{061C}"] {
            let result = try todo.run(["add", "invoice\(character)fdp.exe"])
            #expect(result.status == 1)
            #expect(result.stderr.contains("bidirectional"), "\(result.stderr)")
        }
        #expect(try todo.run(["tag", "a\u{202E}b"]).status == 1)
        #expect(todo.fileBytes() == nil)
        try todo.ok("add", "invoice")
        try SQLiteFile(todo.file).execute("UPDATE items SET title = 'invoice' || char(0x202E) || 'fdp.exe'")
        #expect(try todo.ok("list").stdout == "[ ] 1 invoice\\u{202E}fdp.exe\n")
    }

    /// Runs `todo` with standard input read from `path`.
    func run(_ todo: Sandbox, stdinFrom path: String) throws -> RunResult {
        let process = Process()
        process.executableURL = try Sandbox.binary()
        process.environment = todo.environment
        let outURL = todo.directory.appendingPathComponent(".out-stdin")
        let errURL = todo.directory.appendingPathComponent(".err-stdin")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        try process.run()
        let exit = process.waitForExit()
        return RunResult(
            status: exit.status,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8)
        )
    }

    /// Item 13 and the measured 100 MB title: a script without line breaks was read into
    /// memory without end, a folder as standard input was an empty script (exit 0), and a
    /// huge title took seconds and a gigabyte.
    @Test("a script line, a title and standard input have limits: refused with exit 1, never read without end")
    func inputLimits() throws {
        let todo = try Sandbox()
        let zero = try run(todo, stdinFrom: "/dev/zero")
        #expect(zero.status == 1)
        #expect(zero.stderr == "todo: line 1 is longer than 65536 bytes (one command a line); stopped there\n")
        let folder = try run(todo, stdinFrom: todo.directory.path)
        #expect(folder.status == 1)
        #expect(folder.stderr == "todo: cannot read the script from standard input: Is a directory\n")
        #expect(todo.fileBytes() == nil)

        let long = try todo.run([], stdin: "add " + String(repeating: "x", count: 4_097) + "\n")
        #expect(long.status == 1)
        #expect(long.stderr == "todo: line 1: a title is limited to 4096 bytes of UTF-8 (got 4097)\n")
        let huge = try todo.run(["--keep-going"], stdin: "add ok\nadd " + String(repeating: "y ", count: 40_000) + "\nadd fine\n")
        #expect(huge.status == 1)
        #expect(huge.stderr == "todo: line 2: a title is limited to 4096 bytes of UTF-8 (got 79999)\n")
        let longest = String(repeating: "z", count: 4_096)
        #expect(try todo.ok("add", longest).stdout == "Added 3: \"\(longest)\"\n")
        #expect(try todo.titles() == ["ok", "fine", longest])
        // Line breaks of both kinds, and a last line without one.
        #expect(try todo.run([], stdin: "add a\r\nadd b").stdout == "Added 4: \"a\"\nAdded 5: \"b\"\n")
    }

    /// Item 7: after another program edited the title of an item an older step changed,
    /// `undo` wrote a state that `history` and `add` then refused for good, with a memory
    /// address in the message.
    @Test("a move through the history that the saved steps no longer fit is refused before anything is written")
    func outsideEditRefusedBeforeWriting() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("edit", "1", "oat", "milk")
        try todo.ok("add", "eggs")
        try SQLiteFile(todo.file).execute("UPDATE items SET title = 'soy milk' WHERE title = 'oat milk'")
        let bytes = try #require(todo.fileBytes())
        let undo = try todo.run(["undo"])
        #expect(undo.status == 1)
        #expect(undo.stderr == "todo: cannot move there in the history: the list was changed outside todo where a saved step also changes it (the present is not the version the history stands at: the step to v2 does not apply at an item's title); nothing was changed\n")
        for command in [["undo"], ["undo", "2"], ["goto", "v1"], ["earlier", "2"], ["undo", "3"]] {
            let refused = try todo.run(command)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderr.hasSuffix("nothing was changed\n"), "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("an item's title") && !refused.stderr.contains("0x"), "\(command): \(refused.stderr)")
            #expect(todo.fileBytes() == bytes)
        }
        #expect(try todo.ok("history").stdout.contains("* v3  add \"eggs\""))
        #expect(try todo.ok("add", "bread").stdout == "Added 3: \"bread\"\n")
        #expect(try todo.titles() == ["soy milk", "eggs", "bread"])
    }

    /// Item 9: the outline's `next` counter at 2^64-1 made `add` crash (exit 132), and a
    /// step's change count at 2^63-1 made `commit` crash with an arithmetic overflow.
    @Test("numbers out of range in the history are refused as damage, never trapped on")
    func craftedNumbers() throws {
        let todo = try Sandbox()
        try todo.ok("add", "a")
        try SQLiteFile(todo.file).execute(#"UPDATE meta SET value = replace(value, '"next":2', '"next":18446744073709551615') WHERE key = 'outline'"#)
        let bytes = try #require(todo.fileBytes())
        let add = try todo.run(["add", "b"])
        #expect(add.status == 1)
        #expect(add.stderr == "todo: \(todo.file): the database is damaged (the history's outline holds a number out of range); the file was left untouched\n")
        #expect(todo.fileBytes() == bytes)

        let other = try Sandbox()
        try other.ok("add", "a")
        try other.ok("begin")
        try other.ok("add", "b")
        try other.ok("add", "c")
        try SQLiteFile(other.file).execute(#"UPDATE steps SET step = replace(step, '"count":1', '"count":9223372036854775807') WHERE version = 2"#)
        let commit = try other.run(["commit"])
        #expect(commit.status == 1)
        #expect(commit.stderr.hasPrefix("todo: \(other.file): the database is damaged (history step 2 holds a number out of range)"), "\(commit.stderr)")

        // Digits in a title are text, not numbers.
        let digits = try Sandbox()
        try digits.ok("add", "call 123456789012345678901234567890 e5 1.5")
        try digits.ok("undo")
        try digits.ok("redo")
        #expect(try digits.titles() == ["call 123456789012345678901234567890 e5 1.5"])
    }

    /// Item 14: a byte flipped inside a title on disk was read as the title.
    @Test("a byte changed inside an item's row on disk is reported as damage, and the file is left untouched")
    func flippedByteInATitle() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "zebra crossing")
        // The row's bytes on the items table's page (the step that added it holds the title
        // too, in another table: that copy stays as it is).
        let file = try SQLiteFile(todo.file)
        let page = try Int(file.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'items'"))
        let pageSize = try Int(file.integer("PRAGMA page_size"))
        var bytes = try #require(todo.fileBytes())
        let pageRange = (page - 1) * pageSize..<page * pageSize
        let title = try #require(bytes[pageRange].firstRange(of: Data("zebra crossing".utf8)))
        bytes[title.lowerBound] = UInt8(ascii: "Z")
        try bytes.write(to: URL(fileURLWithPath: todo.file))

        for command in [["list"], ["add", "bread"], ["done", "2"]] {
            let refused = try todo.run(command)
            #expect(refused.status == 1, "\(command)")
            #expect(refused.stderr == "todo: \(todo.file): the database is damaged (the row of item 2 does not match its checksum: changed on disk, not through SQLite); the file was left untouched\n", "\(command)")
            #expect(todo.fileBytes() == bytes, "\(command)")
        }
    }

    /// Item 14, the other side: another program that edits a row through SQLite (the
    /// `sqlite3` shell, say) is another writer, not damage: SQLite runs the file's trigger,
    /// which marks the row, and `todo` reads it and checks it again once it writes it.
    @Test("a row edited through SQLite by another program is read as that program wrote it, and checked again once todo writes it")
    func rowEditedThroughSQLite() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        let file = try SQLiteFile(todo.file)
        #expect(try file.integer("SELECT count(*) FROM items WHERE checksum IS NOT NULL") == 2)
        try file.execute("UPDATE items SET title = 'oat milk' WHERE title = 'milk'")
        #expect(try file.integer("SELECT count(*) FROM items WHERE checksum IS NULL") == 1)
        #expect(try todo.titles() == ["oat milk", "eggs"])
        try todo.ok("edit", "1", "soy milk")
        #expect(try file.integer("SELECT count(*) FROM items WHERE checksum IS NULL") == 0)
        #expect(try todo.titles() == ["soy milk", "eggs"])
    }

    /// Item 14, migration: a file of schema 1 (no checksums) is read as it is, and its rows
    /// get their checksums with the first write.
    @Test("a file without checksums is read as it is and gets them with the first write")
    func checksumsAddedByMigration() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        let file = try SQLiteFile(todo.file)
        // Schema 1 had neither the checksums nor the steps' parent and scope columns.
        try file.execute("DROP TRIGGER items_edited_elsewhere; ALTER TABLE items DROP COLUMN checksum; DROP INDEX steps_by_parent; ALTER TABLE steps DROP COLUMN parent; ALTER TABLE steps DROP COLUMN scope; PRAGMA user_version = 1")
        let bytes = try #require(todo.fileBytes())
        #expect(try todo.titles() == ["milk", "eggs"])
        #expect(todo.fileBytes() == bytes)
        try todo.ok("add", "bread")
        #expect(try file.integer("PRAGMA user_version") == 3)
        #expect(try file.integer("SELECT count(*) FROM items WHERE checksum IS NOT NULL") == 3)
        #expect(try todo.titles() == ["milk", "eggs", "bread"])
        // Its history was rewritten for reading one step at a time, and still undoes.
        #expect(try file.integer("SELECT count(*) FROM steps WHERE parent IS NOT NULL") == 3)
        try todo.ok("undo", "3")
        #expect(try todo.titles() == [])
    }
}
