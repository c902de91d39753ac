import Foundation
import Testing
import TodoKit

/// A data file that cannot be trusted is reported in one line naming it, with exit code 1,
/// and never written to, by any command.
@Suite("Corrupt and foreign files, end to end")
struct CorruptFileEndToEndTests {

    /// A sandbox holding a good database with a few items and some history, and its bytes.
    static func goodFile() throws -> (Sandbox, Data) {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("done", "2")
        try todo.ok("tag", "t")
        try todo.ok("add", "bread")
        return (todo, try #require(todo.fileBytes()))
    }

    /// Writes `damaged` as the data file, runs `commands` on it and checks that each fails
    /// with one line naming the file and mentioning `reason`, and leaves the file as it was.
    func expectRefused(_ todo: Sandbox, _ damaged: Data, commands: [[String]], mentioning reason: String,
                       otherFiles: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        for command in commands {
            let result = try todo.run(command)
            #expect(result.status == 1, "\(command)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
            #expect(result.stderr.hasPrefix("todo: \(todo.file): "), "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.contains(reason), "\(command): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
            #expect(todo.fileBytes() == damaged, "\(command) changed the file", sourceLocation: sourceLocation)
        }
        #expect(try todo.directoryEntries() == (otherFiles + ["todo.db"]).sorted(), sourceLocation: sourceLocation)
    }

    static let allCommands: [[String]] = [["list"], ["history"], ["add", "x"], ["done", "1"], ["undo"], ["clear"], ["begin"], ["export", "--json"]]

    @Test("Text, noise, and JSON of another kind are not databases: refused, untouched")
    func notADatabase() throws {
        let (todo, _) = try Self.goodFile()
        try expectRefused(todo, Data("hello, world\n".utf8), commands: Self.allCommands, mentioning: "not a todo database")
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) })
        try expectRefused(todo, noise, commands: Self.allCommands, mentioning: "not a todo database")
        try expectRefused(todo, Data(#"{"items":[]}"#.utf8), commands: Self.allCommands, mentioning: "not a todo database")
    }

    @Test("Another program's SQLite database is refused and left as it was")
    func foreignDatabase() throws {
        let todo = try Sandbox()
        let other = todo.directory.appendingPathComponent("other.db").path
        try SQLiteFile(other).execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')")
        let bytes = try #require(todo.fileBytes(other))
        try expectRefused(todo, bytes, commands: Self.allCommands, mentioning: "not a todo database", otherFiles: ["other.db"])
    }

    @Test("A database written by a newer todo is refused with a message saying so")
    func newerSchema() throws {
        let (todo, _) = try Self.goodFile()
        try SQLiteFile(todo.file).execute("PRAGMA user_version = 99")
        let bytes = try #require(todo.fileBytes())
        try expectRefused(todo, bytes, commands: Self.allCommands, mentioning: "written by a newer todo (schema version 99")
    }

    /// Cut inside the pages that hold the tables (a cut that removes only unused pages at the
    /// end loses nothing, and SQLite rightly reads such a file).
    @Test("A truncated database is refused", arguments: [0.3, 0.5])
    func truncated(_ fraction: Double) throws {
        let (todo, good) = try Self.goodFile()
        let cut = good.prefix(Int(Double(good.count) * fraction) / 4096 * 4096 + 100)
        try expectRefused(todo, cut, commands: [["add", "x"], ["undo"], ["history"]], mentioning: "damaged")
    }

    @Test("A damaged index page that reading never touches is caught before a write")
    func damagedIndex() throws {
        let (todo, _) = try Self.goodFile()
        let file = try SQLiteFile(todo.file)
        let page = try file.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_items_1'")
        let pageSize = try file.integer("PRAGMA page_size")
        var damaged = try #require(todo.fileBytes())
        let start = Int((page - 1) * pageSize)
        damaged.replaceSubrange(start ..< start + 16, with: Data(repeating: 0xFF, count: 16))
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        // Listing reads the table alone, which is intact.
        #expect(try todo.titles() == ["milk", "eggs", "bread"])
        try expectRefused(todo, damaged, commands: [["add", "x"], ["rm", "1"], ["undo"]], mentioning: "the database is damaged")
    }

    /// Found by fuzz-todo-store: SQLite's message for a damaged schema quotes the schema's
    /// text, line breaks included, and the error spread over several lines of stderr.
    @Test("A damaged schema is refused in one line, though SQLite's message spans several")
    func damagedSchemaText() throws {
        let (todo, _) = try Self.goodFile()
        try SQLiteFile(todo.file).execute("""
            PRAGMA writable_schema = ON;
            UPDATE sqlite_schema SET sql = replace(sql, 'step BLOB NOT NULL', 'step BLOB "NOT NULL') WHERE name = 'steps';
            """)
        let bytes = try #require(todo.fileBytes())
        try expectRefused(todo, bytes, commands: Self.allCommands, mentioning: "malformed database schema (steps)")
    }

    /// Found by fuzz-todo-store (the fixture is its input): the index of item ids misses the
    /// row of "bread", which `PRAGMA quick_check` does not notice (it does not compare indexes
    /// with tables; `integrity_check` does). `undo` of "add bread" then deletes by id through
    /// the index, deletes nothing, says "Undid" and exits 0, and every later `history` refuses
    /// the file: the row is there, the history says it is not. A write that changes fewer
    /// rows than it should fails instead (exit 1, file untouched).
    @Test("An index that misses a row: undo fails cleanly and leaves the file as it was")
    func indexMissingARow() throws {
        let todo = try Sandbox()
        let damaged = try Data(contentsOf: EarlierVersionFileEndToEndTests.fixtures.appendingPathComponent("index-missing-a-row.db"))
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        #expect(try todo.titles() == ["milk", "bread"])
        let undo = try todo.run(["undo"])
        let history = try todo.run(["history"])
        #expect(undo.status == 1 && undo.stderr.contains("damaged"), "\(undo.stderr)")
        #expect(todo.fileBytes() == damaged)
        #expect(history.status == 0)
    }

    @Test("An item whose id is not a UUID is refused")
    func badID() throws {
        let (todo, _) = try Self.goodFile()
        try SQLiteFile(todo.file).execute("UPDATE items SET id = 'not-a-uuid' WHERE title = 'eggs'")
        let bytes = try #require(todo.fileBytes())
        try expectRefused(todo, bytes, commands: [["list"], ["add", "x"]], mentioning: "item 2 has an id that is not a UUID")
    }

    @Test("A data file that is a directory or a FIFO is refused, and nothing is created")
    func notARegularFile() throws {
        let todo = try Sandbox()
        try FileManager.default.createDirectory(atPath: todo.file, withIntermediateDirectories: true)
        for command in [["list"], ["add", "x"]] {
            let result = try todo.run(command)
            #expect(result.status == 1)
            #expect(result.stderr == "todo: \(todo.file): not a regular file (a directory); give the path of a file\n")
        }
        let fifo = todo.directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for command in [["list"], ["add", "x"]] {
            let result = try todo.run(["--file", fifo] + command)
            #expect(result.status == 1)
            #expect(result.stderr == "todo: \(fifo): not a regular file (a FIFO); give the path of a file\n")
        }
        #expect(try todo.directoryEntries() == ["fifo", "todo.db"])
    }
}
