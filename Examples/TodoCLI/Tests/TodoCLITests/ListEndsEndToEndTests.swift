import Foundation
import Testing
import TestSupport

/// A one-shot `add`, `undo`, `redo` or `tag` on a long list reads only the ends of the list
/// (see `TodoDataFile.modify(nearTheEnds:_:)`), and falls back to the whole list when the
/// command needs more. Either way it must do exactly what the whole-list path does.
@Suite("Commands near the ends of a long list, end to end")
struct ListEndsEndToEndTests {

    /// More items than the two ends read (256 each), so the middle is never read.
    static let length = 1_200

    /// A sandbox holding `length` items, imported without a history step (so no undo
    /// shortens the list).
    static func longList() throws -> Sandbox {
        let todo = try Sandbox()
        let items = (1...length).map { #"{"id":"\#(UUID().uuidString)","title":"item \#($0)","done":false}"# }
        let file = todo.directory.appendingPathComponent("long.json")
        try Data(#"{"format":"todo-export","version":1,"items":[\#(items.joined(separator: ","))]}"#.utf8).write(to: file)
        try todo.ok("--history-limit", "0", "import", "--json", file.path)
        try FileManager.default.removeItem(at: file)
        return todo
    }

    @Test("One-shot commands give the same messages and list as the same commands in a script",
          arguments: [UInt64(1), 2, 3])
    func sameAsWholeList(seed: UInt64) throws {
        let oneShot = try Self.longList()
        let script = try Sandbox()
        try FileManager.default.copyItem(atPath: oneShot.file, toPath: script.file)

        var random = SeededGenerator(seed: seed)
        var count = Self.length
        var commands: [[String]] = []
        for step in 0..<60 {
            // Positions near the ends (read) and in the middle (not read), to take both paths.
            let near = Int.random(in: 1...10, using: &random)
            let position = [near, count + 1 - near, count / 2 + near][Int.random(in: 0...2, using: &random)]
            let command: [String] = switch Int.random(in: 0..<12, using: &random) {
            case 0...3: ["add", "new \(step)"]
            case 4, 5: ["undo"]
            case 6: ["redo"]
            case 7: ["undo", "3"]
            case 8: ["done", String(position)]
            case 9: ["tag", "t\(step % 3)"]
            case 10: [["undo", "t\(step % 3)"], ["redo", "t\(step % 3)"]][step % 2]
            default: ["edit", String(position), "edited \(step)"]
            }
            commands.append(command)
            // Approximate after undos; a position past the end is refused the same both ways.
            if command[0] == "add" { count += 1 }
        }

        var oneShotOutput = ""
        for command in commands {
            let result = try oneShot.run(command)
            oneShotOutput += result.stdout
            // Refusals (a tag on the wrong side, say) go to standard error in both runs.
            #expect(result.status == 0 || result.status == 1, "\(command): \(result.stderr)")
        }
        let lines = commands.map { $0.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " ") }
        let scripted = try script.run(["--keep-going"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(oneShotOutput == scripted.stdout)
        #expect(try oneShot.items() == script.items())
        #expect(try oneShot.items().count >= Self.length)
        // The commands did things, both ways.
        for word in ["Added", "Undid", "Redid"] {
            #expect(oneShotOutput.contains(word))
        }
    }

    @Test("Undoing a change in the middle of a long list, behind a change at its end, restores it")
    func undoInTheMiddle() throws {
        let todo = try Self.longList()
        try todo.ok("done", "600")
        try todo.ok("add", "last")
        #expect(try todo.ok("undo", "2").stdout == "Undid 2 steps: add \"last\"; done \"item 600\"\n")
        let items = try todo.items()
        #expect(items.count == Self.length)
        #expect(items[599] == ListedItem(position: 600, title: "item 600", done: false))
        #expect(try todo.ok("redo").stdout == "Redid: done \"item 600\"\n")
        #expect(try todo.items()[599].done)
        #expect(try todo.ok("redo").stdout == "Redid: add \"last\"\n")
        #expect(try todo.items().last == ListedItem(position: Self.length + 1, title: "last", done: false))
    }
}
