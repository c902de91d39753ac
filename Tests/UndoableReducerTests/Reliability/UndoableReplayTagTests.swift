import Revertible
import Testing
import UndoableReducer

/// Replaying a saved reducer history keeps every tag where it was, and what abandoning an
/// open scope would do to tags (issue 22, bugs 3 and 4).
@Suite("Undoable reliability: replays keep every tag")
struct UndoableReplayTagTests {

    let reducer = Shelf().undoable()

    func reduced(_ state: UndoableState<Shelf.State>, _ actions: [UndoableAction<Shelf.Action>]) -> UndoableState<Shelf.State> {
        var state = state
        for action in actions { _ = reducer.reduce(into: &state, action: action) }
        return state
    }

    /// Where each tag is, seen from the present, after `then` on both states.
    func expectSameTags(_ restored: UndoableState<Shelf.State>, _ original: UndoableState<Shelf.State>, tags: [String], then actions: [UndoableAction<Shelf.Action>]) {
        let restored = reduced(restored, actions)
        let original = reduced(original, actions)
        #expect(restored.error == nil && original.error == nil)
        #expect(restored.present == original.present, "after \(actions)")
        for tag in tags {
            #expect(restored.location(of: tag) == original.location(of: tag), "\(tag) after \(actions)")
        }
        #expect(restored.currentVersionTags == original.currentVersionTags, "after \(actions)")
    }

    /// Bug 3: the replay gave the version a scope starts from only its newest tag.
    @Test("Every tag of a version a scope starts from survives a replay")
    func everyTagOfAScopeStart() throws {
        let state = reduced(UndoableState(Shelf.State()), [
            .tag("a"), .tag("b"), .action(.name("x")), .tag("c"), .tag("d"), .pushNewScope, .action(.name("y")),
        ])
        let restored = try reducer.restore(state.replay(of: Shelf.Action.self))
        #expect(restored == state)
        let tags = ["a", "b", "c", "d"]
        expectSameTags(restored, state, tags: tags, then: [])
        expectSameTags(restored, state, tags: tags, then: [.undoAndPopCurrentScope])
        expectSameTags(restored, state, tags: tags, then: [.undoAndPopCurrentScope, .undo])
        expectSameTags(restored, state, tags: tags, then: [.popCurrentScope, .undo(to: .tag("a"))])
    }

    /// Bug 4: a tag an open scope moved was replayed only where it is now, so abandoning the
    /// rebuilt scope dropped it instead of putting it back.
    @Test("Tags moved inside an open scope go back where they were when the rebuilt scope is abandoned")
    func tagsMovedInsideAnOpenScope() throws {
        let state = reduced(UndoableState(Shelf.State()), [
            .action(.name("x")), .tag("t"), .tag("u"), .action(.name("z")), .tag("w"),
            .pushNewScope, .action(.name("y")), .tag("t"),
            .pushNewScope, .action(.count("k", 1)), .tag("u"), .tag("t"), .action(.count("k", 2)), .tag("w"),
        ])
        let restored = try reducer.restore(state.replay(of: Shelf.Action.self))
        #expect(restored == state)
        let tags = ["t", "u", "w"]
        expectSameTags(restored, state, tags: tags, then: [])
        expectSameTags(restored, state, tags: tags, then: [.undoAndPopCurrentScope])
        expectSameTags(restored, state, tags: tags, then: [.undoAndPopCurrentScope, .undoAndPopCurrentScope])
        expectSameTags(restored, state, tags: tags, then: [.popCurrentScope, .undoAndPopCurrentScope])
        expectSameTags(restored, state, tags: tags, then: [.undoAndPopCurrentScope, .undoAndPopCurrentScope, .undo(to: .tag("t"))])
    }
}
