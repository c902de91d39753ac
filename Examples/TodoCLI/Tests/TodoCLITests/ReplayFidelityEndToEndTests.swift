import Foundation
import Testing
import TestSupport

/// The history restored from the file behaves exactly like the one kept in memory: the same
/// random commands, run once as separate invocations (each restoring the file) and once as
/// one script (one process, one in-memory history), print the same lines and end with the
/// same list and history.
@Suite("Replay fidelity, end to end")
struct ReplayFidelityEndToEndTests {

    static func randomCommands(seed: UInt64, count: Int) -> [[String]] {
        var random = SeededGenerator(seed: seed)
        let words = ["milk", "eggs", "bread", "jam", "tea", "rice"]
        func n() -> String { String(Int.random(in: 1...6, using: &random)) }
        func word() -> String { words.randomElement(using: &random)! }
        func tag() -> String { ["t1", "t2"].randomElement(using: &random)! }
        return (0..<count).map { _ in
            switch Int.random(in: 0..<20, using: &random) {
            case 0...4: ["add", word(), word()]
            case 5: ["done", n()]
            case 6: ["undone", n()]
            case 7: ["edit", n(), word()]
            case 8: ["rm", n()]
            case 9: ["move", n(), n()]
            case 10: ["clear"]
            case 11, 12: ["undo"] + (Bool.random(using: &random) ? [] : [n()])
            case 13: ["redo"] + (Bool.random(using: &random) ? [] : [n()])
            case 14: ["tag", tag()]
            case 15: ["undo", tag()]
            case 16: ["redo", tag()]
            case 17: ["begin"]
            case 18: ["commit"]
            default: ["rollback"]
            }
        }
    }

    @Test("Separate invocations and one script agree", arguments: [1, 2] as [UInt64])
    func agree(seed: UInt64) throws {
        let commands = Self.randomCommands(seed: seed, count: 45)
        let separate = try Sandbox()
        var separateOutput = ""
        for command in commands {
            // History limit 8, so trimming with scopes open is exercised too.
            separateOutput += try separate.run(["--history-limit", "8"] + command).stdout
        }
        let scripted = try Sandbox()
        let script = commands.map { $0.map { "'\($0)'" }.joined(separator: " ") }.joined(separator: "\n") + "\n"
        let scriptOutput = try scripted.run(["--history-limit", "8", "--keep-going"], stdin: script).stdout

        #expect(separateOutput == scriptOutput)
        #expect(try separate.items() == scripted.items())
        // Everything but when each step was made.
        func withoutTimes(_ json: String) -> String {
            json.split(separator: "\n").filter { !$0.contains(#""time" :"#) }.joined(separator: "\n")
        }
        #expect(try withoutTimes(separate.ok("history", "--json").stdout) == withoutTimes(scripted.ok("history", "--json").stdout))
        // And the file written by the script restores to what the script had in memory.
        #expect(try separate.ok("undo", "100").stdout == scripted.ok("undo", "100").stdout)
        #expect(try separate.items() == scripted.items())
    }
}
