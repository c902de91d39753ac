import Foundation
import Testing

/// Every one-shot command, run as the built `todo` binary against a file in a temporary
/// directory.
@Suite("Commands, end to end")
struct CommandsEndToEndTests {

    @Test("add, list, done, undone, edit, rm, move and clear each print one confirming line")
    func everyChange() throws {
        let todo = try Sandbox()
        #expect(try todo.ok("add", "milk").lines == [#"Added 1: "milk""#])
        #expect(try todo.ok("add", "eggs", "and", "bread").lines == [#"Added 2: "eggs and bread""#])
        #expect(try todo.ok("add", "  spaced \n  out ").lines == [#"Added 3: "spaced out""#])
        #expect(try todo.ok("list").lines == ["[ ] 1 milk", "[ ] 2 eggs and bread", "[ ] 3 spaced out"])

        #expect(try todo.ok("done", "1").lines == [#"Done 1: "milk""#])
        #expect(try todo.ok("done", "1").lines == [#"Item 1 is already done: "milk""#])
        #expect(try todo.ok("undone", "1").lines == [#"Not done 1: "milk""#])
        #expect(try todo.ok("edit", "1", "oat", "milk").lines == [#"Edited 1: "milk" → "oat milk""#])
        #expect(try todo.ok("move", "3", "1").lines == [#"Moved "spaced out" from 3 to 1"#])
        #expect(try todo.titles() == ["spaced out", "oat milk", "eggs and bread"])
        #expect(try todo.ok("rm", "1").lines == [#"Removed 1: "spaced out""#])
        #expect(try todo.titles() == ["oat milk", "eggs and bread"])

        try todo.ok("done", "2")
        #expect(try todo.ok("list").lines == ["[ ] 1 oat milk", "[x] 2 eggs and bread"])
        #expect(try todo.ok("clear").lines == ["Cleared 1 done item (undo brings them back)"])
        #expect(try todo.ok("clear").lines == ["No done items to clear"])
        #expect(try todo.titles() == ["oat milk"])
    }

    @Test("list filters keep each item's position in the full list; --json is in list order")
    func listFilters() throws {
        let todo = try Sandbox()
        for title in ["a", "b", "c", "d"] { try todo.ok("add", title) }
        try todo.ok("done", "2")
        try todo.ok("done", "4")
        #expect(try todo.ok("list", "--all").lines == ["[ ] 1 a", "[x] 2 b", "[ ] 3 c", "[x] 4 d"])
        #expect(try todo.ok("list", "--open").lines == ["[ ] 1 a", "[ ] 3 c"])
        #expect(try todo.ok("list", "--done").lines == ["[x] 2 b", "[x] 4 d"])
        #expect(try todo.ok("ls").lines.count == 4)

        let json = try JSONDecoder().decode([ListedItem].self, from: Data(todo.ok("list", "--json", "--done").stdout.utf8))
        #expect(json == [ListedItem(position: 2, title: "b", done: true), ListedItem(position: 4, title: "d", done: true)])
        #expect(try todo.items().map(\.done) == [false, true, false, true])
    }

    @Test("An empty list says so, and reading it creates no file")
    func emptyList() throws {
        let todo = try Sandbox()
        #expect(try todo.ok("list").lines == ["No items. Add one with: todo add <title>"])
        #expect(try todo.ok("list", "--done").lines == ["No done items."])
        #expect(try todo.ok("list", "--json").stdout == "[\n\n]\n" || todo.ok("list", "--json").stdout == "[]\n")
        #expect(try todo.ok("undo").lines == ["Nothing to undo"])
        #expect(try todo.ok("history").lines == ["No history yet."])
        #expect(todo.fileBytes() == nil)
    }

    @Test("undo and redo say what they did, by label, one step or several")
    func undoRedoLabels() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("done", "1")
        try todo.ok("edit", "2", "brown", "eggs")
        try todo.ok("move", "2", "1")
        try todo.ok("rm", "1")
        #expect(try todo.ok("undo").lines == [#"Undid: rm "brown eggs""#])
        #expect(try todo.ok("undo").lines == [#"Undid: move "brown eggs" 2 → 1"#])
        #expect(try todo.ok("undo").lines == [#"Undid: edit "eggs" → "brown eggs""#])
        #expect(try todo.ok("undo", "2").lines == [#"Undid 2 steps: done "milk"; add "eggs""#])
        #expect(try todo.titles() == ["milk"])
        #expect(try todo.ok("redo", "2").lines == [#"Redid 2 steps: add "eggs"; done "milk""#])
        #expect(try todo.ok("redo").lines == [#"Redid: edit "eggs" → "brown eggs""#])
        #expect(try todo.ok("redo", "9").lines == [#"Redid 2 steps (all there were): move "brown eggs" 2 → 1; rm "brown eggs""#])
        #expect(try todo.ok("redo").lines == ["Nothing to redo"])
        #expect(try todo.ok("undo", "99").lines.first?.hasPrefix("Undid 6 steps (all there were): ") == true)
        #expect(try todo.ok("undo").lines == ["Nothing to undo"])
        #expect(try todo.titles() == [])
    }

    @Test("tag names a version; undo and redo go to it")
    func tags() throws {
        let todo = try Sandbox()
        try todo.ok("add", "a")
        #expect(try todo.ok("tag", "one").lines == [#"Tagged the present "one""#])
        #expect(try todo.ok("tag", "one").lines == [#"The present is already tagged "one""#])
        try todo.ok("add", "b")
        try todo.ok("add", "c")
        #expect(try todo.ok("undo", "one").lines == [#"Undid 2 steps back to "one": add "c"; add "b""#])
        #expect(try todo.titles() == ["a"])
        #expect(try todo.ok("undo", "one").lines == [#"Already at tag "one""#])
        try todo.ok("redo", "2")
        try todo.ok("tag", "three")
        try todo.ok("undo", "3")
        #expect(try todo.ok("redo", "three").lines == [#"Redid 3 steps up to "three": add "a"; add "b"; add "c""#])
        #expect(try todo.ok("tag", "one").lines == [#"Moved tag "one" to the present (it keeps its tag "three")"#])
    }

    @Test("begin/commit squashes a scope into one undo step; rollback abandons it")
    func scopes() throws {
        let todo = try Sandbox()
        try todo.ok("add", "before")
        #expect(try todo.ok("begin").lines == [#"Began a scope (level 1): changes until "commit" become one undo step; "rollback" abandons them"#])
        try todo.ok("add", "x")
        try todo.ok("add", "y")
        try todo.ok("done", "2")
        #expect(try todo.ok("commit").lines == ["Committed 3 changes as one undo step"])
        #expect(try todo.ok("undo").lines == [#"Undid: add "x" (+2 more)"#])
        #expect(try todo.titles() == ["before"])
        #expect(try todo.ok("redo").lines == [#"Redid: add "x" (+2 more)"#])
        #expect(try todo.titles() == ["before", "x", "y"])

        try todo.ok("begin")
        try todo.ok("rm", "1")
        try todo.ok("add", "z")
        #expect(try todo.ok("undo", "5").lines == [#"Undid 2 steps (all there were): add "z"; rm "before""#])
        #expect(try todo.ok("undo").lines == [#"Nothing to undo in this scope ("rollback" abandons it)"#])
        try todo.ok("redo")
        #expect(try todo.ok("rollback").lines == ["Rolled back 1 change"])
        #expect(try todo.titles() == ["before", "x", "y"])
        #expect(try todo.ok("undo").lines == [#"Undid: add "x" (+2 more)"#])

        try todo.ok("begin")
        #expect(try todo.ok("commit").lines == ["Committed an empty scope (no undo step)"])

        // Changes that undo each other make no step, and the message does not claim one.
        try todo.ok("begin")
        try todo.ok("add", "gone")
        try todo.ok("rm", "2")
        #expect(try todo.ok("commit").lines == ["Committed a scope whose changes cancel out (no undo step)"])
        #expect(try todo.titles() == ["before"])
        #expect(try todo.ok("redo").lines == [#"Redid: add "x" (+2 more)"#])
        try todo.ok("begin")
        try todo.ok("done", "1")
        try todo.ok("undone", "1")
        #expect(try todo.ok("rollback").lines == ["Rolled back a scope whose changes cancel out"])
    }

    @Test("history shows the versions, the present, tags, undone steps and the open scope")
    func history() throws {
        let todo = try Sandbox()
        try todo.ok("tag", "empty")
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("tag", "two")
        try todo.ok("done", "1")
        try todo.ok("undo")
        #expect(try todo.ok("history").lines == [
            "2 to undo, 1 to redo (history limit 100)",
            "o v0  (start)  [empty]",
            #"o v1  add "milk""#,
            #"* v2  add "eggs"  [two]"#,
            #"o v3  done "milk"  (undone)"#,
        ])
        struct Document: Decodable {
            struct Version: Decodable {
                var version: Int
                var parent: Int?
                var branches: [Int]
                var label: String?
                var tags: [String]
                var time: String?
                var changeCount: Int
                var undone: Bool
                var present: Bool
            }
            var scopeLevel: Int
            var undoCount: Int
            var redoCount: Int
            var present: Int
            var versions: [Version]
        }
        let document = try JSONDecoder().decode(Document.self, from: Data(todo.ok("history", "--json").stdout.utf8))
        #expect(document.undoCount == 2 && document.redoCount == 1 && document.scopeLevel == 0 && document.present == 2)
        #expect(document.versions.map(\.version) == [0, 1, 2, 3])
        #expect(document.versions.map(\.parent) == [nil, 0, 1, 2])
        #expect(document.versions.map(\.branches) == [[1], [2], [3], []])
        #expect(document.versions.map(\.label) == [nil, #"add "milk""#, #"add "eggs""#, #"done "milk""#])
        #expect(document.versions.map(\.tags) == [["empty"], [], ["two"], []])
        #expect(document.versions.map(\.present) == [false, false, true, false])
        #expect(document.versions.map(\.undone) == [false, false, false, true])
        #expect(document.versions.map { $0.time == nil } == [true, false, false, false])

        try todo.ok("begin")
        try todo.ok("add", "bread")
        #expect(try todo.ok("history").lines == [
            #"Inside a scope (level 1): "commit" makes these steps one, "rollback" abandons them"#,
            "1 to undo, 0 to redo (history limit 100)",
            "o v2  (start)  [two]",
            #"* v4  add "bread""#,
        ])
    }

    @Test("A change after an undo keeps the branch it left, across runs; goto, earlier and later reach it")
    func branches() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("undo")
        try todo.ok("add", "bread")
        #expect(try todo.ok("history").lines == [
            "2 to undo, 0 to redo, 1 other branch (goto v<n>) (history limit 100)",
            "o v0  (start)",
            #"o v1  add "milk""#,
            "|\\",
            #"| o v2  add "eggs""#,
            #"* v3  add "bread""#,
        ])
        #expect(try todo.ok("goto", "v2").lines == [#"Went to v2: add "eggs""#])
        #expect(try todo.titles() == ["milk", "eggs"])
        #expect(try todo.ok("earlier").lines == [#"Went to v1: add "milk""#])
        #expect(try todo.ok("later", "2").lines == [#"Went to v3: add "bread""#])
        #expect(try todo.titles() == ["milk", "bread"])
        #expect(try todo.ok("later", "1h").lines == [#"Already at v3: add "bread""#])
        #expect(try todo.ok("goto", "0").lines == ["Went to v0: (start)"])
        #expect(try todo.titles() == [])
        // Everything here was made within the hour.
        #expect(try todo.ok("later", "1h").lines == [#"Went to v3: add "bread""#])
        try todo.ok("goto", "v0")
        // Plain redo follows the branch visited last.
        #expect(try todo.ok("redo", "2").lines == [#"Redid 2 steps: add "milk"; add "bread""#])

        let unknown = try todo.run(["goto", "v9"])
        #expect(unknown.status == 1 && unknown.stderr.contains("there is no version v9"))
        let notDuration = try todo.run(["earlier", "soon"])
        #expect(notDuration.status == 1 && notDuration.stderr.contains("neither a number of versions nor a duration"))
        #expect(try todo.titles() == ["milk", "bread"])
    }

    @Test("help and --help print the usage; -- lets a title start with dashes")
    func helpAndDashes() throws {
        let todo = try Sandbox()
        let help = try todo.ok("help")
        #expect(help.stdout.contains("Usage: todo"))
        #expect(help.stdout.contains("undo [<steps>|<tag>]"))
        #expect(try todo.ok("--help").stdout == help.stdout)
        #expect(try todo.ok("list", "--help").stdout == help.stdout)
        #expect(try todo.ok("add", "--", "--verbose", "flag").lines == [#"Added 1: "--verbose flag""#])
        #expect(try todo.ok("add", "-5", "degrees").lines == [#"Added 2: "-5 degrees""#])
        // Options end at the command word: after "add", every word is the title's.
        #expect(try todo.ok("add", "--help").lines == [#"Added 3: "--help""#])
    }

    @Test("Piped output has no color codes; NO_COLOR is respected on a terminal")
    func noColorWhenPiped() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("done", "1")
        #expect(!(try todo.ok("list").stdout.contains("\u{1B}")))
        #expect(!(try todo.run(["nope"]).stderr.contains("\u{1B}")))
    }
}
