import Foundation
@testable import Revertible
import Testing
import TestSupport

/// Issue 39: a controller's synchronous transaction records a `Versionable` value's trees from
/// the journal of what its body wrote, with the walk of `addReversions(into:)` made once on the
/// history's copy before the body runs. A value whose registrations are not a plain list (see
/// `RegistrationShape`) must still get the step comparing gives: the same current version,
/// undo, redo and archive as a controller with the journal off, after every write of
/// `ShapedWrite.sequence` and every undo and redo back.
@Suite("Controller journal: every shape of registration gives the step comparing gives")
struct ControllerRegistrationShapeJournalTests {

    @Test("Journaled and compared transactions agree in version, undo, redo and archive", arguments: RegistrationShape.allCases)
    func agreesWithComparing(shape: RegistrationShape) throws {
        let journaled = VersioningController(ShapedBoard.start(shape), clock: TestClock())
        let compared = VersioningController(ShapedBoard.start(shape), clock: TestClock())
        compared.recordsWrites = false
        func expectSame(after what: String) throws {
            #expect(journaled.currentVersion == compared.currentVersion, "\(shape), after \(what): the versions differ")
            #expect(journaled.undoCount == compared.undoCount && journaled.redoCount == compared.redoCount, "\(shape), after \(what)")
            #expect(journaled.error == nil && compared.error == nil, "\(shape), after \(what)")
            #expect(try archive(of: journaled) == archive(of: compared), "\(shape), after \(what): the archives differ")
        }
        for write in ShapedWrite.sequence {
            for controller in [journaled, compared] {
                controller.setWithTransaction { write.apply(to: &$0) }
            }
            try expectSame(after: "\(write)")
        }
        let count = journaled.undoCount
        for step in 0..<count {
            let undone = try (journaled.undo(), compared.undo())
            #expect(undone.0 == undone.1)
            try expectSame(after: "undo \(step + 1)")
        }
        // An ignored tree is not versioned: undo leaves it as written.
        if shape != .treeIgnored { #expect(journaled.currentVersion == ShapedBoard.start(shape)) }
        for step in 0..<count {
            let redone = try (journaled.redo(), compared.redo())
            #expect(redone.0 == redone.1)
            try expectSame(after: "redo \(step + 1)")
        }
        // A plain registration is journaled, or the comparison above proves nothing of the
        // journal: each transaction that changes only the tree.
        if shape == .plain {
            #expect(journaled.journaledStepCount >= 10)
        }
    }
}

private func archive(of controller: VersioningController<ShapedBoard, ShapedBoard, HistoryError>) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(controller.archive)
}
