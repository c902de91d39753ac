import Foundation
import Testing

/// The session the README shows is what `todo` prints, byte for byte: each `$ todo ...` line
/// is run in a fresh sandbox, and its standard output and error, and its exit code when it
/// says one, must be the lines that follow it.
@Suite("The README's todo session")
struct ReadmeTranscriptEndToEndTests {

    struct Command {
        var arguments: [String]
        var expected: String
        var status: Int32
    }

    static let readme = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The first fenced block of the README whose first line is a `$ todo` command.
    static func transcript() throws -> [Command] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```\n")
        let block = try #require(blocks.first { $0.hasPrefix("$ todo ") }, "no todo session in the README")
        var commands: [Command] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ todo") {
                let words = line.dropFirst("$ todo".count).split(separator: " ").map(String.init)
                commands.append(Command(arguments: words, expected: "", status: 0))
            } else if line.hasPrefix("(exit code "), let status = Int32(line.dropFirst("(exit code ".count).dropLast()) {
                commands[commands.count - 1].status = status
            } else if !commands.isEmpty, !line.isEmpty {
                commands[commands.count - 1].expected += line + "\n"
            }
        }
        return commands
    }

    @Test("runs as shown, in order, on a new list")
    func transcriptMatches() throws {
        let commands = try Self.transcript()
        #expect(commands.count >= 20, "the whole session was found")
        let todo = try Sandbox()
        todo.environment["NO_COLOR"] = "1"
        for command in commands {
            let result = try todo.run(command.arguments)
            let printed = result.stdout + result.stderr
            #expect(result.status == command.status, "todo \(command.arguments.joined(separator: " "))")
            #expect(printed == command.expected, "todo \(command.arguments.joined(separator: " "))")
        }
    }
}
