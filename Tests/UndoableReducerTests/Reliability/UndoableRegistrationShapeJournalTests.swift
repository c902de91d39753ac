import Foundation
@testable import Revertible
import Testing
import TestSupport
@testable import UndoableReducer

/// Issue 39: an undoable reducer records a run from the journal of the trees it lent, with the
/// walk of the state's `addReversions(into:)` made once on the history's copy before the run.
/// A state whose registrations are not a plain list (they branch on whether the tree changed,
/// on the tree's content or another property, register the tree only under a condition, with
/// a reversion of their own, beside a derived value or the whole value) must still get the
/// step comparing gives: the same present, undo, redo and archive as the same reducer with
/// the journal off, after every write of `ShapedWrite.sequence` and every undo and redo back.
@Suite("Undoable journal: every shape of registration gives the step comparing gives")
struct UndoableRegistrationShapeJournalTests {

    @Test("Journaled and compared runs agree in present, steps, undo, redo and archive", arguments: RegistrationShape.allCases)
    func agreesWithComparing(shape: RegistrationShape) throws {
        var options = UndoableOptions<ShapedWrite>(clock: TestClock())
        let journaling = ShapedBoardReducer().undoable(options)
        options.policy.recordsWrites = false
        let comparing = ShapedBoardReducer().undoable(options)
        var journaled = UndoableState(ShapedBoard.start(shape))
        var compared = journaled
        func expectSame(after what: String) throws {
            #expect(journaled.present == compared.present, "\(shape), after \(what): the presents differ")
            #expect(journaled.steps() == compared.steps(), "\(shape), after \(what): the steps differ")
            #expect(journaled.error == nil && compared.error == nil, "\(shape), after \(what)")
            let (saved, other) = (try archive(of: journaled), try archive(of: compared))
            #expect(saved == other, "\(shape), after \(what): the archives differ")
        }
        for write in ShapedWrite.sequence {
            _ = journaling.reduce(into: &journaled, action: .action(write))
            _ = comparing.reduce(into: &compared, action: .action(write))
            try expectSame(after: "\(write)")
        }
        let count = journaled.history.undoCount
        #expect(count == compared.history.undoCount)
        for step in 0..<count {
            _ = journaling.reduce(into: &journaled, action: .undo)
            _ = comparing.reduce(into: &compared, action: .undo)
            try expectSame(after: "undo \(step + 1)")
        }
        // An ignored tree is not versioned: undo leaves it as written.
        if shape != .treeIgnored { #expect(journaled.present == ShapedBoard.start(shape)) }
        for step in 0..<count {
            _ = journaling.reduce(into: &journaled, action: .redo)
            _ = comparing.reduce(into: &compared, action: .redo)
            try expectSame(after: "redo \(step + 1)")
        }
        // A plain registration is journaled, or the comparison above proves nothing of the
        // journal: each write that changes only the tree.
        if shape == .plain {
            #expect(journaled.engine.journaledStepCount >= 10)
        }
    }
}

/// Applies each write to the board.
struct ShapedBoardReducer: Reducer {
    func reduce(into state: inout ShapedBoard, action: ShapedWrite) -> Effect<ShapedWrite> {
        action.apply(to: &state)
        return .none
    }
}
