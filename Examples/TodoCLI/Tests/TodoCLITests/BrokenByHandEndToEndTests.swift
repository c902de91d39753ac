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
}
