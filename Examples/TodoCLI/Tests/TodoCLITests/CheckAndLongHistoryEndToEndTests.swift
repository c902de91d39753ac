import Foundation
import Testing

/// Issue 37: a command reads the history rows it crosses, not the whole history, and
/// `todo check` reads everything at once, as `PRAGMA integrity_check` does.
@Suite("Long histories and todo check, end to end")
struct CheckAndLongHistoryEndToEndTests {

    /// A file of three items and `edits` title edits, every step kept.
    private func longHistory(edits: Int) throws -> Sandbox {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("add", "bread")
        let script = (0..<edits).map { "edit \($0 % 3 + 1) title \($0)\n" }.joined()
        try todo.ok("--history-limit", "100000", stdin: script)
        return todo
    }

    @Test("todo check reads every step and says the file is sound")
    func soundFile() throws {
        let todo = try longHistory(edits: 300)
        let checked = try todo.ok("--history-limit", "100000", "check")
        #expect(checked.stdout == "Checked \(todo.file): every page, 3 items and 303 history steps; no damage found\n")
    }

    @Test("A damaged step far back is found by todo check and by the move that reaches it, never by commands that do not")
    func damagedStepFarBack() throws {
        let todo = try longHistory(edits: 300)
        // Its change count, which the step's checksum covers.
        try SQLiteFile(todo.file).execute(#"UPDATE steps SET step = replace(step, '"count":1', '"count":2') WHERE version = 100"#)
        let bytes = try #require(todo.fileBytes())
        let check = try todo.run(["--history-limit", "100000", "check"])
        #expect(check.status == 1)
        #expect(check.stderr.contains("step v100") && check.stderr.contains("checksum"), "\(check.stderr)")
        #expect(todo.fileBytes() == bytes)
        // Commands near the present never read it.
        try todo.ok("--history-limit", "100000", "undo", "5")
        try todo.ok("--history-limit", "100000", "redo", "2")
        try todo.ok("--history-limit", "100000", "add", "jam")
        #expect(try todo.titles().last == "jam")
        // The move that reaches it is refused, and changes nothing.
        let before = try #require(todo.fileBytes())
        let far = try todo.run(["--history-limit", "100000", "goto", "v50"])
        #expect(far.status == 1)
        #expect(far.stderr.contains("step v100"), "\(far.stderr)")
        #expect(todo.fileBytes() == before)
    }
}
