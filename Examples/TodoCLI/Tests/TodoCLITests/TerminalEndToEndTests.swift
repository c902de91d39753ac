import Foundation
import Testing

/// The binary on a real terminal: `script` (util-linux) runs it on a pseudo-terminal, so
/// `todo` with no arguments opens the interactive shell and output is colored. Skipped where
/// `script` is missing.
@Suite("On a terminal, end to end", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
struct TerminalEndToEndTests {

    /// Runs `todo arguments` on a pseudo-terminal fed with `input`.
    func onTerminal(_ todo: Sandbox, _ arguments: [String], input: String, environment: [String: String?] = [:]) throws -> RunResult {
        let command = ([try Sandbox.binary().path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.environment = todo.mergedEnvironment(environment).merging(["TERM": "xterm"]) { $1 }
        let inputURL = todo.directory.appendingPathComponent(".in-terminal")
        try Data(input.utf8).write(to: inputURL)
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        let outputURL = todo.directory.appendingPathComponent(".out-terminal")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        try output.close()
        let text = try String(contentsOf: outputURL, encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
        return RunResult(status: process.terminationStatus, stdout: text, stderr: "")
    }

    @Test("todo with no arguments opens the shell; clear asks first")
    func interactiveShell() throws {
        let todo = try Sandbox()
        let result = try onTerminal(todo, [], input: "add milk\nadd eggs\ndone 1\nbegin\nclear\ny\ncommit\nquit\n",
                                    environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("todo> Added 1: \"milk\""))
        #expect(result.stdout.contains("todo (scope 1)> Remove 1 done item? [y/N] Cleared 1 done item"))
        #expect(result.stdout.contains("todo (scope 1)> Committed 1 change as one undo step"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(try todo.titles() == ["eggs"])
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
