import Foundation
import Testing

/// History that survives the process: every command here is a separate `todo` run.
@Suite("Persistence, end to end")
struct PersistenceEndToEndTests {

    @Test("Undo, redo, tags, open scopes and labels work across invocations")
    func acrossInvocations() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("tag", "start")
        try todo.ok("begin")
        try todo.ok("add", "eggs")
        try todo.ok("done", "1")
        // The scope is still open in a new process: commit finds it.
        #expect(try todo.ok("history").lines.first?.hasPrefix("Inside a scope (level 1)") == true)
        #expect(try todo.ok("commit").lines == ["Committed 2 changes as one undo step"])
        try todo.ok("add", "bread")
        try todo.ok("undo")
        // The redo step survives too.
        #expect(try todo.ok("redo").lines == [#"Redid: add "bread""#])
        #expect(try todo.ok("undo", "start").lines == [#"Undid 2 steps back to "start": add "bread"; add "eggs" (+1 more)"#])
        #expect(try todo.items() == [ListedItem(position: 1, title: "milk", done: false)])
        #expect(try todo.ok("redo", "2").lines == [#"Redid 2 steps: add "eggs" (+1 more); add "bread""#])
        #expect(try todo.items().map(\.done) == [true, false, false])
    }

    @Test("The history keeps at most --history-limit or TODO_HISTORY_LIMIT steps, 100 by default")
    func historyLimit() throws {
        let todo = try Sandbox()
        for index in 1...5 { try todo.ok("add", "item \(index)") }
        #expect(try todo.ok("history").lines.first == "5 to undo, 0 to redo (history limit 100)")
        let limited = try todo.run(["--history-limit", "3", "add", "item 6"])
        #expect(limited.status == 0)
        #expect(try todo.ok("history").lines.first == "3 to undo, 0 to redo (history limit 100)")
        let environment = try todo.run(["add", "item 7"], environment: ["TODO_HISTORY_LIMIT": "2"])
        #expect(environment.status == 0)
        #expect(try todo.ok("undo", "10").lines == [#"Undid 2 steps (all there were): add "item 7"; add "item 6""#])
        #expect(try todo.titles() == ["item 1", "item 2", "item 3", "item 4", "item 5"])
        // The flag wins over the variable.
        let both = try todo.run(["--history-limit=0", "add", "x"], environment: ["TODO_HISTORY_LIMIT": "50"])
        #expect(both.status == 0)
        #expect(try todo.ok("undo").lines == ["Nothing to undo"])
    }

    @Test("The file does not grow with use: the history is bounded by the limit")
    func boundedFile() throws {
        let todo = try Sandbox()
        // Adds and removes: the list stays empty, the history fills up to its limit.
        let script = (1...25).map { "add item \($0 % 10)\nrm 1\n" }.joined()
        #expect(try todo.run(["--history-limit", "6"], stdin: script).status == 0)
        let size = try #require(todo.fileBytes()).count
        #expect(try todo.run(["--history-limit", "6"], stdin: script).status == 0)
        #expect(try todo.titles() == [])
        #expect(try #require(todo.fileBytes()).count == size)
        #expect(try todo.ok("history").lines.count == 8)
    }

    @Test("The file is --file, else TODO_FILE, else $XDG_DATA_HOME/todo/todo.db, else ~/.local/share/todo/todo.db")
    func location() throws {
        let todo = try Sandbox()
        let explicit = todo.directory.appendingPathComponent("nested/dir/explicit.db").path
        let xdg = todo.directory.appendingPathComponent("xdg/todo/todo.db").path
        let home = todo.directory.appendingPathComponent("home/.local/share/todo/todo.db").path

        #expect(try todo.run(["--file", explicit, "add", "flag"]).status == 0)
        #expect(try todo.run(["add", "variable"]).status == 0)
        #expect(try todo.run(["add", "xdg"], environment: ["TODO_FILE": nil]).status == 0)
        #expect(try todo.run(["add", "home"], environment: ["TODO_FILE": nil, "XDG_DATA_HOME": nil]).status == 0)
        // A relative XDG_DATA_HOME is ignored, as the XDG spec says.
        #expect(try todo.run(["add", "home again"], environment: ["TODO_FILE": nil, "XDG_DATA_HOME": "relative"]).status == 0)
        // --file wins over TODO_FILE.
        #expect(try todo.run(["--file=\(explicit)", "add", "flag again"]).status == 0)

        func titles(_ path: String) throws -> [String] {
            let result = try todo.run(["--file", path, "list", "--json"])
            return try JSONDecoder().decode([ListedItem].self, from: Data(result.stdout.utf8)).map(\.title)
        }
        #expect(try titles(explicit) == ["flag", "flag again"])
        #expect(try titles(todo.file) == ["variable"])
        #expect(try titles(xdg) == ["xdg"])
        #expect(try titles(home) == ["home", "home again"])
        #expect(!FileManager.default.fileExists(atPath: todo.directory.appendingPathComponent("relative").path))

        let nowhere = try todo.run(["add", "x"], environment: ["TODO_FILE": nil, "XDG_DATA_HOME": nil, "HOME": nil])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("cannot find a place for the data file"))
    }

    @Test("The file is a todo database: schema version, one row per item and per step, no log files left behind")
    func fileLayout() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("edit", "1", "oat milk")
        let bytes = try #require(todo.fileBytes())
        #expect(bytes.prefix(16) == Data("SQLite format 3\0".utf8))
        // todo closes the database on exit, which folds the log into it and removes it.
        #expect(try todo.directoryEntries() == ["todo.db"])
        let file = try SQLiteFile(todo.file)
        #expect(try file.integer("PRAGMA application_id") == 0x746F_646F)
        #expect(try file.integer("PRAGMA user_version") == 3)
        // Each step row names its parent and scope, so a command reads only the rows it crosses.
        #expect(try file.integer("SELECT count(*) FROM steps WHERE parent IS NOT NULL AND scope = 0") == 3)
        #expect(try file.integer("SELECT count(*) FROM items") == 2)
        #expect(try file.integer("SELECT count(*) FROM steps") == 3)
        #expect(try file.integer("SELECT count(*) FROM items WHERE title = 'oat milk' AND done = 0") == 1)
        // A one-title edit is saved as its change: a few hundred bytes, not the list.
        #expect(try file.integer("SELECT length(step) FROM steps ORDER BY version DESC LIMIT 1") < 600)
    }

    @Test("Writing through a symbolic link updates its target and keeps the link")
    func symbolicLink() throws {
        let todo = try Sandbox()
        try todo.ok("add", "real")
        let link = todo.directory.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: todo.file)
        #expect(try todo.run(["--file", link, "add", "through the link"]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == todo.file)
        #expect(try todo.titles() == ["real", "through the link"])
    }
}
