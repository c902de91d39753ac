import Foundation
import Testing

/// Issue 37: a data file keeps no free pages (`auto_vacuum = INCREMENTAL`, and an
/// `incremental_vacuum` in every write that freed some), so a write never has to check every
/// page; a file that has some anyway is checked whole before a write, as before.
@Suite("Free pages, end to end")
struct FreePagesEndToEndTests {

    /// A title near the limit, so that each step overflows onto pages of its own, which
    /// dropping the step frees.
    static func longTitle(_ suffix: Int) -> String {
        String(repeating: "x", count: 4_000) + "\(suffix)"
    }

    /// Each command below frees the overflow pages of a long title (an item row deleted, a
    /// step the limit of one drops); an earlier `todo` left them on the free list (1 page
    /// after the undo, 2 after `rm`), where the next write had to check every page.
    @Test("A write that frees pages gives them back before it commits")
    func writesLeaveNoFreePages() throws {
        let todo = try Sandbox()
        for index in 0..<5 {
            try todo.ok("--history-limit", "1", "add", Self.longTitle(index))
        }
        for command in [["undo"], ["rm", "1"], ["done", "1"], ["done", "2"], ["done", "3"], ["clear"]] {
            let result = try todo.run(["--history-limit", "1"] + command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let file = try SQLiteFile(todo.file)
            #expect(try file.integer("PRAGMA auto_vacuum") == 2)
            #expect(try file.integer("PRAGMA freelist_count") == 0, "after \(command)")
        }
        #expect(try todo.titles().isEmpty)
        try todo.ok("--history-limit", "1", "undo")
        #expect(try todo.titles() == (1..<4).map(Self.longTitle))
        try todo.ok("check")
    }

    @Test("A file an earlier todo made, with free pages, is converted once by the first write")
    func earlierFileConverted() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        // As an earlier todo left it: no auto-vacuum, and pages another write freed.
        try SQLiteFile(todo.file).execute("""
            PRAGMA auto_vacuum = NONE;
            VACUUM;
            CREATE TABLE scratch (x BLOB);
            INSERT INTO scratch VALUES (zeroblob(50000));
            DROP TABLE scratch;
            """)
        let before = try SQLiteFile(todo.file)
        #expect(try before.integer("PRAGMA auto_vacuum") == 0)
        #expect(try before.integer("PRAGMA freelist_count") > 0)
        try todo.ok("add", "bread")
        let after = try SQLiteFile(todo.file)
        #expect(try after.integer("PRAGMA auto_vacuum") == 2)
        #expect(try after.integer("PRAGMA freelist_count") == 0)
        #expect(try todo.titles() == ["milk", "eggs", "bread"])
        try todo.ok("undo")
        #expect(try todo.titles() == ["milk", "eggs"])
        try todo.ok("check")
    }

    /// Another program may still leave free pages; then a write checks every page first,
    /// as it did before the file kept none, and a damaged page it would never have read is
    /// reported, the file left as it was.
    @Test("A file with free pages and a damaged page no command reads is refused, untouched")
    func damagedPageWithFreePages() throws {
        let todo = try Sandbox()
        for title in ["milk", "eggs", "bread"] { try todo.ok("add", title) }
        try SQLiteFile(todo.file).execute("""
            CREATE TABLE scratch (x BLOB);
            INSERT INTO scratch VALUES (zeroblob(50000));
            DROP TABLE scratch;
            """)
        let file = try SQLiteFile(todo.file)
        #expect(try file.integer("PRAGMA freelist_count") > 0)
        let page = try file.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_items_1'")
        let pageSize = try file.integer("PRAGMA page_size")
        var damaged = try #require(todo.fileBytes())
        let start = Int((page - 1) * pageSize)
        damaged.replaceSubrange(start ..< start + 16, with: Data(repeating: 0xFF, count: 16))
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        #expect(try todo.titles() == ["milk", "eggs", "bread"])
        for command in [["add", "x"], ["undo"], ["rm", "1"]] {
            let result = try todo.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr.contains("damaged"), "\(command): \(result.stderr)")
            #expect(todo.fileBytes() == damaged, "\(command) changed the file")
        }
    }
}
