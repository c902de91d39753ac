import Foundation
import Testing
import TestSupport
import TodoKit
import UndoableReducer

/// A 3,000-line script of every kind of change, killed with SIGKILL at seeded random moments:
/// after each kill the file opens, and it holds exactly what the acknowledged lines made
/// (plus, at most, the line in flight), as the same commands give on an in-memory store.
@Suite("A long script killed at random points, end to end")
struct KilledScriptEndToEndTests {

    /// What a state shows of itself: the items, the scope level, the undo and redo counts,
    /// the present's version.
    struct Signature: Equatable, CustomStringConvertible {
        var items: [String]
        var scopeLevel: Int
        var undoCount: Int
        var redoCount: Int
        var present: UInt64

        init(_ state: UndoableState<TodoList>) {
            items = state.present.items.map { ($0.isDone ? "[x] " : "[ ] ") + $0.title }
            scopeLevel = state.scopeLevel
            undoCount = state.undoCount
            redoCount = state.redoCount
            present = state.currentVersionID.rawValue
        }

        init(items: [ListedItem], history: HistoryCounts) {
            self.items = items.map { ($0.done ? "[x] " : "[ ] ") + $0.title }
            scopeLevel = history.scopeLevel
            undoCount = history.undoCount
            redoCount = history.redoCount
            present = history.present
        }

        var description: String {
            "\(items.count) items (last \(items.last ?? "none")), scope \(scopeLevel), \(undoCount) to undo, \(redoCount) to redo, at v\(present)"
        }
    }

    /// The top level of `todo history --json`.
    struct HistoryCounts: Decodable {
        var scopeLevel: Int
        var undoCount: Int
        var redoCount: Int
        var present: UInt64
    }

    /// A script of `count` lines that never fails (positions always exist, `commit` and
    /// `rollback` only in a scope), made by running each line on an in-memory store as
    /// `todo` runs it; returns the lines and the signature after each (index 0: before any).
    static func script(count: Int, seed: UInt64, historyLimit: Int) -> (lines: [String], after: [Signature]) {
        var random = SeededGenerator(seed: seed)
        let store = TodoStore(initialState: UndoableState(TodoList()), reducer: TodoReducer.withUndo(historyLimit: historyLimit))
        var lines: [String] = []
        var after = [Signature(store.state)]
        for number in 1...count {
            let items = store.state.present.items
            // An empty list can only grow.
            let roll = items.isEmpty ? 0 : Int.random(in: 0..<100, using: &random)
            let position = items.isEmpty ? 0 : Int.random(in: 1...items.count, using: &random)
            let line: String
            switch roll {
            case 0..<35:
                line = "add item \(number)"
                store.send(.action(.add(id: UUID(), title: "item \(number)")))
            case 35..<50:
                let item = items[position - 1]
                line = "edit \(position) edited \(number)"
                store.send(.action(.edit(id: item.id, from: item.title, to: "edited \(number)")))
            case 50..<60:
                let item = items[position - 1]
                line = "done \(position)"
                if !item.isDone { store.send(.action(.setDone(id: item.id, title: item.title, isDone: true))) }
            case 60..<64:
                let item = items[position - 1]
                line = "undone \(position)"
                if item.isDone { store.send(.action(.setDone(id: item.id, title: item.title, isDone: false))) }
            case 64..<80:
                line = "undo"
                if store.state.undoCount > 0 { store.send(.undo(to: .steps(1))) }
            case 80..<90:
                line = "redo"
                if store.state.redoCount > 0 { store.send(.redo(to: .steps(1))) }
            case 90..<94 where store.state.scopeLevel < 3:
                line = "begin"
                store.send(.pushNewScope)
            case 94..<99 where store.state.scopeLevel > 0:
                line = "commit"
                store.send(.popCurrentScope)
            case 99 where store.state.scopeLevel > 0:
                line = "rollback"
                store.send(.undoAndPopCurrentScope)
            default:
                line = "add item \(number)"
                store.send(.action(.add(id: UUID(), title: "item \(number)")))
            }
            precondition(store.state.error == nil, "line \(number), \(line): \(String(describing: store.state.error))")
            lines.append(line)
            after.append(Signature(store.state))
        }
        return (lines, after)
    }

    /// The file's signature, read by `todo list --json` and `todo history --json`, which
    /// must both succeed: the file opens.
    func signature(of todo: Sandbox, historyLimit: Int) throws -> Signature {
        let list = try todo.run(["list", "--json"])
        #expect(list.status == 0, "list: \(list.stderr)")
        let history = try todo.run(["history", "--json"], environment: ["TODO_HISTORY_LIMIT": String(historyLimit)])
        #expect(history.status == 0, "history: \(history.stderr)")
        return Signature(
            items: try JSONDecoder().decode([ListedItem].self, from: Data(list.stdout.utf8)),
            history: try JSONDecoder().decode(HistoryCounts.self, from: Data(history.stdout.utf8))
        )
    }

    @Test("SIGKILL at seeded random moments of a 3,000-line script: the file opens and holds the acknowledged prefix",
          arguments: [UInt64(14)])
    func killedAtRandomPoints(seed: UInt64) throws {
        // A short history keeps each line cheap (and drops steps on nearly every line).
        let historyLimit = 20
        let (lines, expected) = Self.script(count: 3000, seed: seed, historyLimit: historyLimit)
        var random = SeededGenerator(seed: seed &+ 1)
        // Where to kill, as lines acknowledged since the start: spread over the whole script.
        let kills = (0..<4).map { _ in Int.random(in: 1..<lines.count, using: &random) }.sorted()
        // SIGKILL leaves what the process wrote in the page cache, on a RAM disk as on any
        // other: one there keeps 3,000 fsyncs from making the test slow.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let todo = try Sandbox(base: FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory)
        // The lines the file holds: the next run starts after them.
        var done = 0
        for target in kills where target > done {
            let process = Process()
            process.executableURL = try Sandbox.binary()
            process.environment = todo.mergedEnvironment(["TODO_HISTORY_LIMIT": String(historyLimit)])
            let input = todo.directory.appendingPathComponent(".in-kill")
            try Data(lines[done...].map { $0 + "\n" }.joined().utf8).write(to: input)
            let outputURL = todo.directory.appendingPathComponent(".out-kill")
            let errorURL = todo.directory.appendingPathComponent(".err-kill")
            _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
            let output = try FileHandle(forWritingTo: outputURL)
            let errors = try FileHandle(forWritingTo: errorURL)
            process.standardInput = try FileHandle(forReadingFrom: input)
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            func acknowledged() -> Int {
                ((try? Data(contentsOf: outputURL)) ?? Data()).reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            }
            let deadline = Date().addingTimeInterval(120)
            while done + acknowledged() < target, !process.hasEnded, Date() < deadline {
                usleep(1_000)
            }
            // Anywhere in the next line's work: reading, writing, committing, printing.
            usleep(UInt32.random(in: 0..<3_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            let exit = process.waitForExit()
            try output.close()
            try errors.close()
            #expect(exit == .killed(signal: SIGKILL), "the script ended before the kill: \(exit)")
            #expect(try String(contentsOf: errorURL, encoding: .utf8) == "")

            let acked = acknowledged()
            #expect(acked >= target - done)
            let found = try signature(of: todo, historyLimit: historyLimit)
            // Every acknowledged line is in the file; the line in flight may be too.
            let prefix = done + acked
            if found == expected[prefix] {
                done = prefix
            } else if prefix < lines.count, found == expected[prefix + 1] {
                done = prefix + 1
            } else {
                Issue.record("""
                    after \(prefix) acknowledged lines (last: \(lines[prefix - 1])) the file shows \(found);
                    expected \(expected[prefix])\(prefix < lines.count ? " or, with \(lines[prefix]), \(expected[prefix + 1])" : "")
                    """)
                return
            }
        }
        #expect(done >= kills.last!)
    }
}
