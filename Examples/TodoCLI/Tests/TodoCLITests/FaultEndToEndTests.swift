import Foundation
import Testing
import TestSupport

/// Seeded fault injection against the built `todo` binary: garbage command lines never crash
/// it, and damaged data files are always refused by a command that reads the history, with the
/// file left as it was. Each failure names its seed (`TODO_FAULT_SEED` replays one case).
@Suite("Fault injection, end to end")
struct FaultEndToEndTests {

    static func seeds(_ count: Int) -> [UInt64] {
        if let seed = ProcessInfo.processInfo.environment["TODO_FAULT_SEED"].flatMap(UInt64.init) { return [seed] }
        return Array(1...UInt64(count))
    }

    // MARK: Garbage command lines

    /// Words, flags, numbers, unicode, empty strings and very long arguments. Never `--file`,
    /// which would send the data file outside the sandbox.
    static func garbageArguments(seed: UInt64) -> [String] {
        var random = SeededGenerator(seed: seed)
        let words = [
            "add", "list", "done", "undone", "edit", "rm", "move", "clear", "undo", "redo", "tag", "history",
            "begin", "commit", "rollback", "help", "quit", "frob", "milk", "", " ", "--", "-", "--json", "--all",
            "--open", "--done", "--history-limit", "--keep-going", "--bogus", "-x", "-1", "0", "1", "2", "99999999999999999999",
            "-9223372036854775808", "1e9", "0x10", "3.5", "é", "e\u{301}", "😀", "👩‍👩‍👧", "中文", "\u{202E}rtl", "\n", "\t", "a\u{7}b",
        ]
        let count = Int.random(in: 0...5, using: &random)
        return (0..<count).map { _ in
            switch Int.random(in: 0..<20, using: &random) {
            case 0: String(repeating: "x", count: Int.random(in: 1_000...100_000, using: &random))
            case 1: String(Int.random(in: Int.min...Int.max, using: &random))
            case 2: String((0..<Int.random(in: 1...8, using: &random)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 0x21...0x7E, using: &random)))
            })
            default: words.randomElement(using: &random)!
            }
        }
    }

    @Test("Garbage command lines exit 0, 1 or 2, with a message for 1 and 2, never a signal", arguments: seeds(40))
    func garbageCommandLines(seed: UInt64) throws {
        let todo = try Sandbox()
        try todo.ok("add", "milk")
        try todo.ok("tag", "t")
        let arguments = Self.garbageArguments(seed: seed)
        let shown = arguments.map { $0.count > 40 ? "<\($0.count) characters>" : $0.debugDescription }
        let result = try todo.run(arguments)
        #expect([0, 1, 2].contains(result.status), "seed \(seed): todo \(shown) exited with \(result.status): \(result.stderr)")
        if result.status != 0 {
            #expect(result.stderr.hasPrefix("todo: "), "seed \(seed): todo \(shown) failed without a message")
        }
        #expect(try todo.directoryEntries().allSatisfy { $0 == "todo.db" }, "seed \(seed)")
    }

    // MARK: Damaged data files

    /// A file with items, a done item, a tag, an undone step and a scope's squashed step.
    static let goodFile: Data? = {
        guard let todo = try? Sandbox() else { return nil }
        for command in [["add", "milk"], ["add", "eggs"], ["done", "2"], ["tag", "t"], ["begin"], ["add", "bread"],
                        ["edit", "1", "oat milk"], ["commit"], ["add", "jam"], ["undo"]] {
            guard (try? todo.run(command))?.status == 0 else { return nil }
        }
        return todo.fileBytes()
    }()

    /// One damage to `file`: a flipped bit, an inserted byte, a deleted byte, or a truncation.
    static func damage(_ file: Data, seed: UInt64) -> (Data, String) {
        var random = SeededGenerator(seed: seed &+ 0x5EED)
        var bytes = [UInt8](file)
        switch seed % 4 {
        case 0:
            let position = Int.random(in: 0..<bytes.count, using: &random)
            let bit = UInt8(1) << UInt8.random(in: 0...7, using: &random)
            bytes[position] ^= bit
            return (Data(bytes), "bit \(bit) flipped at byte \(position)")
        case 1:
            let position = Int.random(in: 0...bytes.count, using: &random)
            let byte = UInt8.random(in: 0...255, using: &random)
            bytes.insert(byte, at: position)
            return (Data(bytes), "byte \(byte) inserted at \(position)")
        case 2:
            let position = Int.random(in: 0..<bytes.count, using: &random)
            bytes.remove(at: position)
            return (Data(bytes), "byte deleted at \(position)")
        default:
            let length = Int.random(in: 0..<bytes.count, using: &random)
            return (Data(bytes.prefix(length)), "truncated to \(length) bytes")
        }
    }

    /// SQLite has no checksums, so damage inside a title's bytes reads as another title; what
    /// must hold for any damage is that `todo` never crashes, and that a command it refuses
    /// leaves the file as it was, reported in one line.
    @Test("Damaged files never crash todo; a refusal is one line and leaves the file untouched", arguments: seeds(30))
    func damagedFiles(seed: UInt64) throws {
        let good = try #require(Self.goodFile)
        let (damaged, what) = Self.damage(good, seed: seed)
        let todo = try Sandbox()
        for command in [["history"], ["undo"], ["add", "x"], ["list"]] {
            try damaged.write(to: URL(fileURLWithPath: todo.file))
            let result = try todo.run(command)
            #expect([0, 1].contains(result.status), "seed \(seed), \(what): todo \(command[0]) exited with \(result.status)")
            if result.status == 1 {
                #expect(result.stderr.hasPrefix("todo: \(todo.file): "), "seed \(seed), \(what): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "seed \(seed), \(what): \(result.stderr)")
                #expect(todo.fileBytes() == damaged, "seed \(seed), \(what): todo \(command[0]) failed and changed the file")
            }
        }
    }
}
