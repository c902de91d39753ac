import Foundation
import Revertible
import Testing

/// One enum of destinations: `move(to:)` goes anywhere in the scope's tree; undo and redo go
/// along their own way and refuse a destination off it; `move(to:)` refuses a number of steps.
@Suite("Destinations: one enum for undo, redo and moves")
struct DestinationTests {

    /// `a`, `b`, `c`, then undo twice and `x`: the tree `"" ─ a ─ b ─ c` and `a ─ x`, at `x`.
    private func branched() throws -> (ValueVersioningController<String>, b: HistoryVersion, c: HistoryVersion) {
        let controller = ValueVersioningController("")
        controller.append("a")
        controller.append("b")
        let b = controller.currentVersionID
        controller.append("c")
        let c = controller.currentVersionID
        try controller.undo(to: .steps(2))
        controller.append("x")
        return (controller, b, c)
    }

    @Test("Undo to the oldest version undoes the whole scope, like undoCurrentScope")
    func undoToOldest() throws {
        let controller = ValueVersioningController("")
        controller.append("a")
        controller.pushNewScope()
        controller.append("ab")
        controller.append("abc")
        #expect(try controller.undo(to: .oldest) == "a")
        #expect(controller.undoCount == 0 && controller.redoCount == 2 && controller.scopeLevel == 1)
        #expect(try controller.redo(to: .newest) == "abc")
        #expect(controller.error == nil)
    }

    @Test("Undo and redo reach a version on their way, and refuse one off it, changing nothing")
    func versionsOnTheWay() throws {
        let (controller, b, c) = try branched()
        let x = controller.currentVersionID
        #expect(throws: HistoryError.destinationOutOfReach(.version(c))) { try controller.undo(to: .version(c)) }
        #expect(controller.error == .destinationOutOfReach(.version(c)))
        #expect(controller.currentVersion == "x" && controller.undoCount == 2)

        let a = try #require(controller.tree().first?.version)
        #expect(try controller.undo(to: .version(a)) == "a")
        #expect(controller.error == nil)
        #expect(throws: HistoryError.destinationOutOfReach(.version(b)), "redo follows x, the branch made last") {
            try controller.redo(to: .version(b))
        }
        #expect(try controller.redo(to: .version(x)) == "x")
        #expect(throws: HistoryError.destinationOutOfReach(.oldest)) { try controller.redo(to: .oldest) }
        #expect(controller.currentVersion == "x")
        // The other branch is a move away, as before.
        #expect(try controller.move(to: .version(c)) == "c")
    }

    @Test("Undo by time or order goes to the destination when it lies behind")
    func undoByOrder() throws {
        let controller = ValueVersioningController("")
        for text in ["a", "ab", "abc"] { controller.append(text) }
        #expect(try controller.undo(to: .earlier(2)) == "a")
        #expect(throws: HistoryError.destinationOutOfReach(.later(1))) { try controller.undo(to: .later(1)) }
        #expect(try controller.redo(to: .later(1)) == "ab")
        #expect(throws: HistoryError.stepsOutOfRange(requested: -1, available: 2)) { try controller.undo(to: .earlier(-1)) }
    }

    @Test("A move refuses a number of steps, which only undo and redo can count along")
    func moveRefusesSteps() throws {
        let controller = ValueVersioningController("")
        controller.append("a")
        let error = #expect(throws: HistoryError.unsupportedDestination(.steps(1))) { try controller.move(to: .steps(1)) }
        #expect(error?.description.contains("nothing was changed") == true)
        #expect(controller.currentVersion == "a" && controller.undoCount == 1)
        #expect(try controller.move(to: .oldest) == "")
    }

    @Test("Saved forms of both former enums load; undo's and redo's keep their bytes")
    func coding() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let cases: [(HistoryDestination, String)] = [
            (.steps(3), #"{"steps":3}"#),
            ("saved", #"{"tag":"saved"}"#),
            (.tag(HistoryTag(7)), #"{"tag":7}"#),
            (.version(HistoryVersion(4)), #"{"version":{"_0":{"rawValue":4}}}"#),
            (.earlier(2), #"{"earlier":{"_0":2}}"#),
            (.later(2), #"{"later":{"_0":2}}"#),
            (.oldest, #"{"oldest":{}}"#),
            (.newest, #"{"newest":{}}"#),
        ]
        for (destination, saved) in cases {
            #expect(String(decoding: try encoder.encode(destination), as: UTF8.self) == saved)
            #expect(try JSONDecoder().decode(HistoryDestination.self, from: Data(saved.utf8)) == destination)
        }
        for duration in [HistoryDestination.earlier(by: .seconds(90)), .later(by: .milliseconds(5))] {
            #expect(try JSONDecoder().decode(HistoryDestination.self, from: encoder.encode(duration)) == duration)
        }
        // How `move(to: .tag(_))` was saved before the two enums were one.
        #expect(try JSONDecoder().decode(HistoryDestination.self, from: Data(#"{"tag":{"_0":"saved"}}"#.utf8)) == "saved")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HistoryDestination.self, from: Data("{}".utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HistoryDestination.self, from: Data(#"{"steps":1,"oldest":{}}"#.utf8))
        }
    }
}
