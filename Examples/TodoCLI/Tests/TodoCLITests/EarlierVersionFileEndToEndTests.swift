import Foundation
import Testing

/// Data files written by earlier versions of `todo` load unchanged: the saved replay keeps its
/// own spelling of the actions, whatever the library calls them now.
@Suite("A data file written by the first todo")
struct EarlierVersionFileEndToEndTests {

    /// Written by the first release (`add milk; add eggs; tag start; done 1; begin;
    /// add bread; edit 3 "whole bread"; tag inner; add jam; undo`), with what its
    /// `history --json` printed.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test("loads with the same list and history, and keeps working")
    func loads() throws {
        let todo = try Sandbox()
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("written-by-todo-v1.json"),
            to: URL(fileURLWithPath: todo.file)
        )
        #expect(try todo.titles() == ["milk", "eggs", "whole bread"])
        let history = try JSONSerialization.jsonObject(with: Data(todo.ok("history", "--json").stdout.utf8)) as? NSDictionary
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("written-by-todo-v1.history.json"))) as? NSDictionary
        #expect(history == expected)

        #expect(try todo.ok("redo").stdout == "Redid: add \"jam\"\n")
        #expect(try todo.ok("commit").stdout == "Committed 3 changes as one undo step\n")
        #expect(try todo.ok("undo").stdout == "Undid: add \"bread\" (+2 more)\n")
        #expect(try todo.ok("undo", "start").stdout == "Undid 1 step back to \"start\": done \"milk\"\n")
        #expect(try todo.titles() == ["milk", "eggs"])
    }
}
