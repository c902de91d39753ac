import Foundation
import Revertible
import Testing
import UndoableReducer

/// Replays of histories whose open scope the limit trimmed or whose tags an open scope moved
/// (issue 38, defects 3 and 4): restoring rebuilds what the live history would do next.
@Suite("Undoable replay: open scopes, the limit and moved tags")
struct UndoableReplayScopeTests {

    /// Restores `state`'s replay through JSON, as a saved replay is.
    func restored<R: Reducer>(_ reducer: Undoable<R>, _ state: UndoableState<R.State>) throws -> UndoableState<R.State>
    where R.State: Codable, R.Action: Codable {
        let replay = try state.replay(of: R.Action.self)
        let decoded = try JSONDecoder().decode(UndoableReplay<R.State, R.Action>.self, from: JSONEncoder().encode(replay))
        return try reducer.restore(decoded)
    }

    /// The restored state and the live one agree on the present, the counts and where "t"
    /// is, now and after each of `continuations`.
    func expectSame(
        _ reducer: Undoable<Tally>, _ live: UndoableState<Tally.State>, _ restored: UndoableState<Tally.State>,
        then continuations: [[UndoableAction<Tally.Action>]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for actions in [[]] + continuations {
            let live = reduce(reducer, live, actions)
            let restored = reduce(reducer, restored, actions)
            #expect(restored.present.count == live.present.count, "after \(actions)", sourceLocation: sourceLocation)
            #expect(restored.location(of: "t") == live.location(of: "t"), "after \(actions)", sourceLocation: sourceLocation)
            #expect(restored.scopeLevel == live.scopeLevel, "after \(actions)", sourceLocation: sourceLocation)
            #expect(restored.undoCount == live.undoCount && restored.redoCount == live.redoCount, "after \(actions)", sourceLocation: sourceLocation)
            #expect(restored.error == live.error, "after \(actions)", sourceLocation: sourceLocation)
        }
    }

    /// Defect 3: the replay left out the steps the limit folded into the open scope's start,
    /// so it arrived at 1 instead of 2 and restoring threw `presentMismatch`.
    @Test("The steps an open scope's limit folded away are replayed, and folded again")
    func foldedScopeStart() throws {
        let reducer = Tally().undoable(UndoableOptions(historyLimit: 1))
        let live = reduce(reducer, UndoableState(Tally.State()), [.pushNewScope, .action(.increment), .action(.increment)])
        #expect(live.present.count == 2 && live.scopeLevel == 1 && live.undoCount == 1)
        let restored = try restored(reducer, live)
        #expect(restored == live)
        expectSame(reducer, live, restored, then: [
            [.undo], [.undoAndPopCurrentScope], [.popCurrentScope, .undo], [.action(.increment), .undoAndPopCurrentScope],
        ])
    }

    /// Defect 4a: a tag made in the scope and moved back to the scope's floor was replayed on
    /// the floor first and the step after it last, so it ended one step ahead.
    @Test("A tag an open scope moved back to the present stays at the present")
    func tagMovedBackToPresent() throws {
        let reducer = Tally().undoable()
        let live = reduce(reducer, UndoableState(Tally.State()), [.pushNewScope, .action(.increment), .tag("t"), .undo, .tag("t")])
        #expect(live.location(of: "t") == .present)
        let restored = try restored(reducer, live)
        expectSame(reducer, live, restored, then: [[.redo], [.undoAndPopCurrentScope], [.popCurrentScope], [.redo, .popCurrentScope]])
    }

    /// Defect 4b: a tag on a branch the scope left was replayed where the scope found it,
    /// since the replay kept no branch.
    @Test("A tag on a branch an open scope left stays on that branch")
    func tagOnAbandonedBranch() throws {
        let reducer = Tally().undoable()
        let live = reduce(reducer, UndoableState(Tally.State()), [
            .tag("t"), .pushNewScope, .action(.increment), .tag("t"), .undo, .action(.add(-1)),
        ])
        #expect(live.location(of: "t") == .onAnotherBranch)
        let restored = try restored(reducer, live)
        #expect(restored.tree().count == live.tree().count)
        expectSame(reducer, live, restored, then: [
            [.undo], [.undoAndPopCurrentScope], [.popCurrentScope], [.move(to: .earlier(1))], [.undo, .redo],
        ])
    }

    /// Defect 4c: popping an inner scope removed the version the tag was moved to, and the
    /// replay put the tag back where the scope had found it.
    @Test("A tag whose version a pop removed stays unknown, and comes back when its scope is abandoned")
    func tagOfPoppedVersion() throws {
        let reducer = Tally().undoable()
        let live = reduce(reducer, UndoableState(Tally.State()), [
            .pushNewScope, .pushNewScope, .tag("t"), .action(.increment), .tag("t"), .action(.increment), .popCurrentScope,
        ])
        #expect(live.location(of: "t") == .unknown)
        let restored = try restored(reducer, live)
        expectSame(reducer, live, restored, then: [[.undo], [.undoAndPopCurrentScope], [.popCurrentScope, .undo]])
    }

    /// Defect 4d: a tag the scope moved onto its own floor was replayed there from the scope
    /// below, so abandoning the scope did not send it back.
    @Test("A tag an open scope moved onto its floor goes back when the scope is abandoned")
    func tagMovedOntoFloor() throws {
        let reducer = Tally().undoable()
        let live = reduce(reducer, UndoableState(Tally.State()), [.tag("t"), .action(.increment), .pushNewScope, .tag("t")])
        let restored = try restored(reducer, live)
        #expect(reduce(reducer, live, [.undoAndPopCurrentScope]).location(of: "t") == .behind(steps: 1))
        expectSame(reducer, live, restored, then: [[.undoAndPopCurrentScope], [.undoAndPopCurrentScope, .undo(to: .tag("t"))], [.popCurrentScope]])
    }

    /// Found by the randomized replay run (seed 339): the steps the limit folded cancelled
    /// out, so replayed as one transaction they made no step, and the rebuilt scope started
    /// on the version the original had folded past, tag and all.
    @Test("A folded start whose steps cancelled out is replayed as steps, and folded again")
    func foldedStartThatCancelledOut() throws {
        let reducer = Tally().undoable(UndoableOptions(historyLimit: 1))
        let live = reduce(reducer, UndoableState(Tally.State()), [
            .pushNewScope, .tag("t"), .action(.increment), .action(.add(-1)), .action(.increment),
        ])
        let restored = try restored(reducer, live)
        #expect(restored.tags(inScopeLevel: 1)! == live.tags(inScopeLevel: 1)!)
        expectSame(reducer, live, restored, then: [[.undo], [.undo, .undo(to: .tag("t"))], [.undoAndPopCurrentScope], [.popCurrentScope, .undo]])
    }

    /// Found by the randomized replay run (seed 1209): a scope moved a tag off a version the
    /// limit then dropped; abandoning the scope drops the tag, where the rebuilt scope, which
    /// had only made the tag, kept it.
    @Test("A tag moved off a version the limit dropped goes when its scope is abandoned")
    func tagMovedOffDroppedVersion() throws {
        let reducer = Tally().undoable(UndoableOptions(historyLimit: 1))
        let live = reduce(reducer, UndoableState(Tally.State()), [
            .pushNewScope, .action(.increment), .tag("t"), .undo, .tag("t"), .action(.add(2)), .action(.add(3)),
        ])
        #expect(reduce(reducer, live, [.undoAndPopCurrentScope]).location(of: "t") == .unknown)
        let restored = try restored(reducer, live)
        expectSame(reducer, live, restored, then: [[.undoAndPopCurrentScope], [.popCurrentScope], [.undo]])
    }
}
