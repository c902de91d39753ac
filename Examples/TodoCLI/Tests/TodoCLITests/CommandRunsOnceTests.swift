import Foundation
import Revertible
import Testing
@testable import TodoKit

/// A command's logic runs once per attempt: `modify` hands the store to the command, and a
/// store never runs it again to find out something it could have kept (issue 23, item 12).
@Suite("A command runs once")
struct CommandRunsOnceTests {

    /// Counts the runs of a command that adds one item.
    final class Counter {
        var runs = 0
    }

    func add(_ title: String, counting counter: Counter) -> (TodoStore) throws(TodoError) -> Void {
        { store in
            counter.runs += 1
            store.send(.action(.add(id: UUID(), title: title)))
        }
    }

    @Test("The first change of a file that does not exist yet runs once, and is written")
    func firstChangeCreatesTheFile() throws {
        let sandbox = try Sandbox()
        let path = sandbox.directory.appendingPathComponent("new/todo.db").path
        let file = TodoDataFile(path: path, historyLimit: 100, singleCommand: true)
        let counter = Counter()
        try file.modify(nearTheEnds: true, add("milk", counting: counter))
        #expect(counter.runs == 1)
        let reread = TodoDataFile(path: path, historyLimit: 100)
        #expect(try reread.readList().items.map(\.title) == ["milk"])
        #expect(try reread.readState().undoCount == 1)
    }

    @Test("A command that changes nothing on a missing file runs once and makes no file")
    func noChangeMakesNoFile() throws {
        let sandbox = try Sandbox()
        let path = sandbox.directory.appendingPathComponent("new/todo.db").path
        let file = TodoDataFile(path: path, historyLimit: 100)
        var runs = 0
        try file.modify { (store) throws(TodoError) in
            runs += 1
            store.send(.undo)
        }
        #expect(runs == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("A change of an existing file runs once, near the ends or on the whole list")
    func existingFile() throws {
        let sandbox = try Sandbox()
        try TodoDataFile(path: sandbox.file, historyLimit: 100).modify(add("milk", counting: Counter()))
        for nearTheEnds in [false, true] {
            let counter = Counter()
            try TodoDataFile(path: sandbox.file, historyLimit: 100, singleCommand: true).modify(nearTheEnds: nearTheEnds, add("eggs", counting: counter))
            #expect(counter.runs == 1)
        }
        #expect(try TodoDataFile(path: sandbox.file, historyLimit: 100).readList().items.map(\.title) == ["milk", "eggs", "eggs"])
    }

    @Test("On a server, a command that makes no step (a tag) runs once", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
    func serverTag() throws {
        let conninfo = try ThrowawayPostgres.newDatabase()
        let store = TodoServerStore(conninfo: conninfo, author: "alice", historyLimit: 100)
        _ = try TodoSession(storage: store, style: Style.plain).run(.add(title: "milk"))
        var runs = 0
        try store.modify(nearTheEnds: true, appliesSavedSteps: false, onConflict: .skip) { (todo) throws(TodoError) in
            runs += 1
            todo.send(.tag(HistoryTag("v1")))
        }
        #expect(runs == 1)
        #expect(try store.readState().location(of: HistoryTag("v1")) == .present)
    }
}
