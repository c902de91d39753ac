import Foundation
import Testing

/// Bad input gets one clear line on standard error and the right exit code, and leaves the
/// data file byte for byte as it was.
@Suite("Bad input, end to end")
struct BadInputEndToEndTests {

    /// A sandbox whose file has two items, one done, a tag, and a step to redo. The file is
    /// made once and copied, to keep the many cases below quick.
    static func prepared() throws -> Sandbox {
        let todo = try Sandbox()
        try #require(preparedFile).write(to: URL(fileURLWithPath: todo.file))
        return todo
    }

    static let preparedFile: Data? = {
        guard let todo = try? Sandbox() else { return nil }
        for command in [["add", "milk"], ["add", "eggs"], ["tag", "two"], ["done", "1"], ["add", "bread"], ["undo"]] {
            guard (try? todo.run(command))?.status == 0 else { return nil }
        }
        return todo.fileBytes()
    }()

    static let usageErrors: [[String]] = [
        ["frobnicate"],
        ["list", "--bogus"],
        ["--bogus"],
        ["-x", "list"],
        ["list", "--file", "other.db"],
        ["done"],
        ["done", "1", "2"],
        ["edit"],
        ["rm"],
        ["move", "1"],
        ["move", "1", "2", "3"],
        ["list", "extra"],
        ["list", "--open", "--done"],
        ["history", "--all"],
        ["clear", "now"],
        ["undo", "1", "2"],
        ["tag"],
        ["tag", "a", "b"],
        ["begin", "now"],
        ["quit"],
        ["--json"],
        ["--file"],
        ["--history-limit", "many", "list"],
        ["--history-limit=-1", "list"],
        ["--keep-going", "list"],
        ["list", "--json=yes"],
    ]

    @Test("Usage errors exit 2 with a hint to read the help", arguments: usageErrors)
    func usage(_ arguments: [String]) throws {
        let todo = try Self.prepared()
        let before = try #require(todo.fileBytes())
        let result = try todo.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("todo: "))
        #expect(result.stderr.hasSuffix("(run \"todo help\" for usage)\n"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(todo.fileBytes() == before)
    }

    static let inputErrors: [(arguments: [String], message: String)] = [
        (["add", ""], "the title is empty"),
        (["add", "", "  "], "the title is empty"),
        (["edit", "1", ""], "the title is empty"),
        (["edit", "1", " "], "the title is empty"),
        (["done", "3"], "there is no item 3: the list has 2 items"),
        (["done", "0"], #""0" is not an item number"#),
        (["done", "-1"], #""-1" is not an item number"#),
        (["done", "one"], #""one" is not an item number"#),
        (["undone", "1.5"], #""1.5" is not an item number"#),
        (["rm", "99999999999999999999"], "is not an item number"),
        (["edit", "x", "title"], #""x" is not an item number"#),
        (["move", "1", "3"], "cannot move to position 3: the list has 2 items"),
        (["move", "3", "1"], "there is no item 3"),
        (["undo", "nope"], #"unknown tag "nope""#),
        (["redo", "nope"], #"unknown tag "nope""#),
        (["undo", "0"], "the number of steps must be at least 1"),
        (["redo", "-2"], "the number of steps must be at least 1"),
        (["redo", "two"], #"tag "two" is behind the present"#),
        (["tag", "42"], "a tag name cannot be a number"),
        (["commit"], "no open scope to commit"),
        (["rollback"], "no open scope to roll back"),
    ]

    @Test("Bad input exits 1 with one clear line and changes nothing", arguments: inputErrors)
    func badInput(_ arguments: [String], _ message: String) throws {
        let todo = try Self.prepared()
        let before = try #require(todo.fileBytes())
        let result = try todo.run(arguments)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("todo: "))
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(todo.fileBytes() == before)
    }

    @Test("A tag ahead of the present, or outside the open scope, is refused")
    func tagsOutOfReach() throws {
        let todo = try Sandbox()
        try todo.ok("add", "a")
        try todo.ok("tag", "one")
        try todo.ok("add", "b")
        try todo.ok("undo", "one")
        var result = try todo.run(["undo", "one"])
        #expect(result.status == 0 && result.stdout == "Already at tag \"one\"\n")
        try todo.ok("redo")
        try todo.ok("tag", "two")
        try todo.ok("undo")
        var before = todo.fileBytes()
        result = try todo.run(["undo", "two"])
        #expect(result.status == 1 && result.stderr.contains(#"tag "two" is ahead of the present: use "redo two""#))
        #expect(todo.fileBytes() == before)
        try todo.ok("redo")
        try todo.ok("begin")
        before = todo.fileBytes()
        result = try todo.run(["undo", "one"])
        #expect(result.status == 1 && result.stderr.contains(#"tag "one" is outside the open scope"#))
        #expect(todo.fileBytes() == before)
        result = try todo.run(["undo", "two"])
        #expect(result.status == 0 && result.stdout == "Already at tag \"two\"\n", "the scope starts on the version tagged two")
        try todo.ok("rollback")
    }

    @Test("Nothing to undo or redo is a message and exit 0, and writes nothing")
    func nothingToUndo() throws {
        let todo = try Sandbox()
        #expect(try todo.ok("undo").lines == ["Nothing to undo"])
        #expect(try todo.ok("redo").lines == ["Nothing to redo"])
        #expect(todo.fileBytes() == nil)
        try todo.ok("add", "a")
        let before = todo.fileBytes()
        try todo.ok("redo")
        try todo.ok("done", "1")
        try todo.ok("undo")
        try todo.ok("undo")
        let empty = todo.fileBytes()
        #expect(try todo.ok("undo").lines == ["Nothing to undo"])
        #expect(todo.fileBytes() == empty)
        #expect(before != empty)
    }

    @Test("A bad TODO_HISTORY_LIMIT is a usage error")
    func badEnvironmentLimit() throws {
        let todo = try Sandbox()
        let result = try todo.run(["list"], environment: ["TODO_HISTORY_LIMIT": "lots"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("TODO_HISTORY_LIMIT"))
    }
}
