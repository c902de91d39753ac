import Foundation
import Testing

/// The binary on a real terminal: `script` (util-linux) runs it on a pseudo-terminal, so
/// `todo` with no arguments opens the interactive shell and output is colored. Skipped where
/// `script` is missing.
@Suite("On a terminal, end to end", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
struct TerminalEndToEndTests {

    /// Runs `todo arguments` on a pseudo-terminal fed with `input`, once the shell's banner
    /// is out (so the line editor has the terminal in raw mode before any key arrives).
    func onTerminal(_ todo: Sandbox, _ arguments: [String], input: String, environment: [String: String?] = [:]) throws -> RunResult {
        let command = ([try Sandbox.binary().path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.environment = todo.mergedEnvironment(environment).merging(["TERM": "xterm"]) { $1 }
        let keyboard = Pipe()
        process.standardInput = keyboard
        let outputURL = todo.directory.appendingPathComponent(".out-terminal")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        if arguments.isEmpty {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, !process.hasEnded,
                  !((try? String(contentsOf: outputURL, encoding: .utf8)) ?? "").contains("to leave") {
                usleep(5_000)
            }
        }
        keyboard.fileHandleForWriting.write(Data(input.utf8))
        let exit = process.waitForExit()
        try keyboard.fileHandleForWriting.close()
        try output.close()
        let text = try String(contentsOf: outputURL, encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
        return RunResult(status: exit.status, stdout: text, stderr: "")
    }

    /// The rows a terminal would show for `output`: each line as it stands after its
    /// carriage returns and the line editor's redraws (clear to the end of the row, cursor
    /// moves), which keep only the last drawing of a row.
    static func screen(_ output: String) -> [String] {
        output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var row = String(line.split(separator: "\r", omittingEmptySubsequences: false).last ?? "")
            while let range = row.range(of: "\u{1B}\\[[0-9]*[KD]", options: .regularExpression) {
                row.removeSubrange(range)
            }
            return row
        }
    }

    @Test("todo with no arguments opens the shell; clear asks first")
    func interactiveShell() throws {
        let todo = try Sandbox()
        let result = try onTerminal(todo, [], input: "add milk\nadd eggs\ndone 1\nbegin\nclear\ny\ncommit\nquit\n",
                                    environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        let rows = Self.screen(result.stdout)
        #expect(rows.contains("todo> add milk"))
        #expect(rows.contains("Added 1: \"milk\""))
        #expect(rows.contains("todo (scope 1)> clear"))
        #expect(rows.contains("Remove 1 done item? [y/N] y"))
        #expect(rows.contains("Cleared 1 done item (undo brings them back)"))
        #expect(rows.contains("Committed 1 change as one undo step"))
        // No color: the only escape sequences are the editor's redraws.
        #expect(!result.stdout.contains("\u{1B}[0m"))
        #expect(try todo.titles() == ["eggs"])
    }

    /// Issue 27, item 17: Ctrl-C at a question asked it again, and the next command typed
    /// was taken as its answer (and never ran).
    @Test("Ctrl-C at a [y/N] question answers no, and the next command runs")
    func interruptAnswersNo() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("done", "1")
        let result = try onTerminal(todo, [], input: "clear\n\u{03}add eggs\n\u{04}", environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        let rows = Self.screen(result.stdout)
        #expect(rows.contains("Remove 1 done item? [y/N] ^C"), "\(rows)")
        #expect(rows.contains("Cancelled"))
        #expect(rows.contains("Added 2: \"eggs\""), "\(rows)")
        #expect(try todo.titles() == ["milk", "eggs"])
    }

    @Test("13: arrow keys edit and recall lines; Ctrl-C cancels a line; Ctrl-D leaves")
    func lineEditing() throws {
        let todo = try Sandbox()
        // Up recalls "add milk", left moves before "k" to insert "l", Enter runs it; Ctrl-C
        // drops "rm 1"; Ctrl-D on the empty line leaves.
        let result = try onTerminal(todo, [], input: "add mik\n\u{1B}[A\u{1B}[Dl\nrm 1\u{03}\u{04}", environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        let rows = Self.screen(result.stdout)
        #expect(rows.contains("Added 1: \"mik\""))
        #expect(rows.contains("Added 2: \"milk\""))
        #expect(rows.contains("todo> rm 1^C"))
        #expect(!result.stdout.contains("unknown command"))
        #expect(try todo.titles() == ["mik", "milk"])
    }

    /// Issue 27 item 4 changed "by the next one-shot command only" to every command until
    /// the scope is closed.
    @Test("13: a scope left open is announced on leaving and by every later one-shot command")
    func openScopeAnnounced() throws {
        let todo = try Sandbox()
        let result = try onTerminal(todo, [], input: "begin\nadd milk\nquit\n", environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("todo: note: a scope opened by \"begin\" is still open (level 1); later commands join it until \"commit\" or \"rollback\""))
        let note = "todo: note: a scope opened by \"begin\" is still open (level 1); later commands join it until \"commit\" or \"rollback\"\n"
        let next = try todo.run(["add", "eggs"])
        #expect(next.status == 0)
        #expect(next.stderr == note)
        #expect(try todo.run(["add", "bread"]).stderr == note)
        #expect(try todo.ok("commit").stdout == "Committed 3 changes as one undo step\n")
        // Leaving with no scope open says nothing, and marks nothing.
        let closed = try onTerminal(todo, [], input: "list\nquit\n", environment: ["NO_COLOR": "1"])
        #expect(!closed.stdout.contains("note:"))
        #expect(try todo.ok("list").stderr.isEmpty)
    }

    @Test("Color on a terminal, none with NO_COLOR")
    func color() throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("done", "1")
        let colored = try onTerminal(todo, ["list"], input: "")
        #expect(colored.stdout.contains("\u{1B}[32m[x]\u{1B}[0m"))
        let plain = try onTerminal(todo, ["list"], input: "", environment: ["NO_COLOR": "1"])
        #expect(plain.stdout == "[x] 1 milk\n")
        let empty = try onTerminal(todo, ["list"], input: "", environment: ["NO_COLOR": ""])
        #expect(empty.stdout.contains("\u{1B}["))
    }
}
