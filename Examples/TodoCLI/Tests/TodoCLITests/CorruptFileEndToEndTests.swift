import Foundation
import Testing
import TodoKit

/// A data file that cannot be trusted is reported in one line naming it, with exit code 1,
/// and never written over, by any command.
@Suite("Corrupt files, end to end")
struct CorruptFileEndToEndTests {

    /// A sandbox holding a good file with a few items and some history.
    static func goodFile() throws -> (Sandbox, Data) {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("add", "eggs")
        try todo.ok("done", "2")
        try todo.ok("tag", "t")
        try todo.ok("add", "bread")
        return (todo, try #require(todo.fileBytes()))
    }

    /// Runs reading and writing commands on a damaged file and checks that each fails with
    /// one line naming the file, and that the file is untouched.
    func expectRefused(_ todo: Sandbox, _ damaged: Data, commands: [[String]], mentioning reason: String) throws {
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        for command in commands {
            let result = try todo.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("todo: \(todo.file): "), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(todo.fileBytes() == damaged, "\(command) changed the file")
        }
        #expect(try todo.directoryEntries() == ["todo.json", "todo.json.lock"])
    }

    static let allCommands: [[String]] = [["list"], ["history"], ["add", "x"], ["done", "1"], ["undo"], ["clear"], ["begin"]]

    @Test("A flipped byte inside a title is caught by the checksum")
    func flippedByteInTitle() throws {
        let (todo, good) = try Self.goodFile()
        var damaged = good
        let title = try #require(damaged.firstRange(of: Data("eggs".utf8)))
        damaged[title.lowerBound] ^= 0x01  // "eggs" → "dggs": still valid JSON
        try expectRefused(todo, damaged, commands: Self.allCommands, mentioning: "checksum mismatch in the list section")
    }

    @Test("A flipped byte in the history is caught by every command that reads the history")
    func flippedByteInHistory() throws {
        let (todo, good) = try Self.goodFile()
        var damaged = good
        let lastTitle = try #require(damaged.lastRange(of: Data("bread".utf8)))
        damaged[lastTitle.lowerBound] ^= 0x20  // "bread" → "Bread"
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        // `list` reads only the header and the list, which are intact.
        #expect(try todo.titles() == ["milk", "eggs", "bread"])
        try expectRefused(todo, damaged, commands: [["history"], ["add", "x"], ["undo"], ["rm", "1"]],
                          mentioning: "checksum mismatch in the history section")
    }

    @Test("A truncated file is refused", arguments: [1, 10, 200])
    func truncated(_ missing: Int) throws {
        let (todo, good) = try Self.goodFile()
        try expectRefused(todo, good.dropLast(missing), commands: Self.allCommands, mentioning: "truncated")
    }

    @Test("A file cut inside its header, an empty file and garbage are refused")
    func garbage() throws {
        let (todo, good) = try Self.goodFile()
        try expectRefused(todo, good.prefix(20), commands: Self.allCommands, mentioning: "not a todo data file")
        try expectRefused(todo, Data(), commands: Self.allCommands, mentioning: "the file is empty")
        try expectRefused(todo, Data("hello, world\n".utf8), commands: Self.allCommands, mentioning: "not a todo data file")
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) })
        try expectRefused(todo, noise, commands: Self.allCommands, mentioning: "not a todo data file")
        try expectRefused(todo, Data(#"{"items":[]}"#.utf8), commands: Self.allCommands, mentioning: "not a todo data file")
        let huge = #"{"format":"todo","history":{"bytes":9223372036854775807,"crc32":"0"},"present":{"bytes":9223372036854775807,"crc32":"0"},"version":1}"#
        try expectRefused(todo, Data((huge + "\n{}\n{}\n").utf8), commands: Self.allCommands, mentioning: "not a todo data file")
    }

    @Test("A file in a newer format is refused with a message saying so")
    func newerFormat() throws {
        let (todo, good) = try Self.goodFile()
        var text = try #require(String(data: good, encoding: .utf8))
        text = text.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
        try expectRefused(todo, Data(text.utf8), commands: Self.allCommands, mentioning: "written by a newer todo (format 2")
        // Even if format 2 lays its header out differently.
        let future = Data((#"{"format":"todo","version":7,"sections":[]}"# + "\nwhatever\n").utf8)
        try expectRefused(todo, future, commands: Self.allCommands, mentioning: "format 7")
    }

    @Test("A history edited by hand, with good checksums, that does not replay to the list is refused")
    func historyMismatch() throws {
        let (todo, good) = try Self.goodFile()
        let text = try #require(String(data: good, encoding: .utf8))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Drop the last step ("add bread") from the history and write valid checksums.
        let history = lines[2]
        let marker = #",{"transaction":{"_0":[{"add":{"#
        let cut = try #require(history.range(of: marker, options: .backwards))
        let end = try #require(history.range(of: "}}]}}", range: cut.upperBound..<history.endIndex))
        lines[2] = String(history[..<cut.lowerBound] + history[end.upperBound...])
        lines[0] = Self.header(present: lines[1], history: lines[2])
        let damaged = Data(lines.joined(separator: "\n").utf8)
        try damaged.write(to: URL(fileURLWithPath: todo.file))
        #expect(try todo.titles() == ["milk", "eggs", "bread"])
        try expectRefused(todo, damaged, commands: [["add", "x"], ["history"]], mentioning: "does not replay")
    }

    /// A format 1 header for the given sections.
    static func header(present: String, history: String) -> String {
        func section(_ text: String) -> String {
            let checksum = String(CRC32.checksum(Data(text.utf8)), radix: 16)
            return #"{"bytes":\#(text.utf8.count),"crc32":"\#(String(repeating: "0", count: 8 - checksum.count) + checksum)"}"#
        }
        return #"{"format":"todo","history":\#(section(history)),"present":\#(section(present)),"version":1}"#
    }

    @Test("A data file that is a directory, or unreadable, is reported")
    func unreadable() throws {
        let todo = try Sandbox()
        try FileManager.default.createDirectory(atPath: todo.file, withIntermediateDirectories: true)
        for command in [["list"], ["add", "x"]] {
            let result = try todo.run(command)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("todo: \(todo.file): cannot read it"), "\(result.stderr)")
        }
    }
}
