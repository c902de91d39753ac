import Foundation
import Testing

/// `todo` with no command and standard input not a terminal: a script, one command a line.
@Suite("Scripts on standard input, end to end")
struct ScriptEndToEndTests {

    @Test("Runs each line, with quotes, comments and blank lines")
    func script() throws {
        let todo = try Sandbox()
        let result = try todo.run([], stdin: """
            # shopping
            add "buy milk"
            add 'say "hi"'   # a comment
            add plain words

            done 2
            list
            undo
            list --open
            """)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.lines == [
            #"Added 1: "buy milk""#,
            #"Added 2: "say "hi"""#,
            #"Added 3: "plain words""#,
            #"Done 2: "say "hi"""#,
            "[ ] 1 buy milk",
            #"[x] 2 say "hi""#,
            "[ ] 3 plain words",
            #"Undid: done "say "hi"""#,
            "[ ] 1 buy milk",
            #"[ ] 2 say "hi""#,
            "[ ] 3 plain words",
        ])
    }

    @Test("Stops at the first error with exit code 1, naming the line")
    func stopsAtFirstError() throws {
        let todo = try Sandbox()
        let result = try todo.run([], stdin: "add one\ndone 7\nadd two\n")
        #expect(result.status == 1)
        #expect(result.lines == [#"Added 1: "one""#])
        #expect(result.stderr == "todo: line 2: there is no item 7: the list has 1 item\n")
        #expect(try todo.titles() == ["one"])
    }

    @Test("A usage error in a script also stops it with exit code 1")
    func usageErrorStops() throws {
        let todo = try Sandbox()
        let result = try todo.run([], stdin: "add one\nfrobnicate\nadd two\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(#"todo: line 2: unknown command "frobnicate""#))
        #expect(try todo.titles() == ["one"])
    }

    @Test("--keep-going runs every line, then exits 1 if any failed")
    func keepGoing() throws {
        let todo = try Sandbox()
        let result = try todo.run(["--keep-going"], stdin: "add one\ndone 7\nfrobnicate\nadd \"unterminated\nadd two\n")
        #expect(result.status == 1)
        #expect(result.lines == [#"Added 1: "one""#, #"Added 2: "two""#])
        #expect(result.stderr.split(separator: "\n").count == 3)
        #expect(try todo.titles() == ["one", "two"])
        #expect(try todo.run(["--keep-going"], stdin: "add three\n").status == 0)
    }

    @Test("quit ends a script; options for the whole run are refused inside it")
    func quitAndOptions() throws {
        let todo = try Sandbox()
        #expect(try todo.run([], stdin: "add one\nquit\nadd two\n").status == 0)
        #expect(try todo.titles() == ["one"])
        let result = try todo.run([], stdin: "--file /tmp/elsewhere list\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("--file can only be given on the command line"))
    }

    @Test("Scopes and confirmations: nothing asks in a script")
    func noConfirmationInScripts() throws {
        let todo = try Sandbox()
        let result = try todo.run([], stdin: "add a\ndone 1\nclear\nbegin\nadd b\nrollback\nlist\n")
        #expect(result.status == 0)
        #expect(result.lines.suffix(4) == [
            #"Began a scope (level 1): changes until "commit" become one undo step; "rollback" abandons them"#,
            #"Added 1: "b""#,
            "Rolled back 1 change",
            "No items. Add one with: todo add <title>",
        ])
    }
}
