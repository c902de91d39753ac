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

    /// Abandoning a scope puts the tags it moved back in the order it first moved them, so
    /// a replay must make those moves in that order: it lives in the order of the replay's
    /// tag actions, and tagging each version's tags in the order they end in reversed it.
    @Test("A replay makes a scope's tag moves in the order the scope made them", arguments: [
        // Both moved onto one version, which lists them the other way round.
        [.tag("t1"), .tag("t2"), .pushNewScope, .action(.name("a")), .tag("t1"), .tag("t2"), .tag("t1")],
        // Moved onto two branches; the one made last lists its tag first.
        [.tag("t1"), .tag("t2"), .pushNewScope, .action(.name("a")), .tag("t1"), .undo, .action(.name("b")),
         .tag("t2"), .move(to: .earlier(1)), .tag("t1")],
        // The second moved away and back, through a version made and dropped again.
        [.tag("t1"), .tag("t2"), .pushNewScope, .action(.name("a")), .tag("t1"), .tag("t2"), .undo, .tag("t2")],
    ] as [[UndoableAction<Shelf.Action>]])
    func scopeTagMovesKeepTheirOrder(actions: [UndoableAction<Shelf.Action>]) throws {
        let state = reduced(UndoableState(Shelf.State()), actions)
        let replay = try state.replay(of: Shelf.Action.self)
        let restored = try reducer.restore(replay)
        #expect(restored == state)
        expectSameTags(restored, state, tags: ["t1", "t2"], then: [])
        expectSameTags(restored, state, tags: ["t1", "t2"], then: [.undoAndPopCurrentScope])
        #expect(reduced(state, [.undoAndPopCurrentScope]).currentVersionTags == ["t1", "t2"])
        // The first tag action of each inside the scope makes its move.
        var firstMoves: [HistoryTag] = []
        for case let .history(.tag(tag)) in replay.actions.drop(while: { $0 != .pushNewScope }) where !firstMoves.contains(tag) {
            firstMoves.append(tag)
        }
        #expect(firstMoves == ["t1", "t2"])
    }

    /// The same with a scope start the limit folded: a move made before the folded steps'
    /// ones (t1's, onto a version the limit dropped) is made with them.
    @Test("A replay makes a folded scope's tag moves in the order the scope made them")
    func foldedScopeTagMovesKeepTheirOrder() throws {
        let reducer = Shelf().undoable(UndoableOptions(historyLimit: 1))
        var state = UndoableState(Shelf.State())
        for action: UndoableAction<Shelf.Action> in [
            .tag("t1"), .tag("t2"), .action(.name("x")), .pushNewScope, .action(.name("a")), .tag("t1"), .undo, .tag("t2"),
            .redo, .action(.name("b")), .action(.name("c")),
        ] {
            _ = reducer.reduce(into: &state, action: action)
            #expect(state.error == nil, "\(action)")
        }
        let restored = try reducer.restore(state.replay(of: Shelf.Action.self))
        for then: [UndoableAction<Shelf.Action>] in [[], [.undoAndPopCurrentScope], [.undoAndPopCurrentScope, .undo]] {
            var (live, rebuilt) = (state, restored)
            for action in then {
                _ = reducer.reduce(into: &live, action: action)
                _ = reducer.reduce(into: &rebuilt, action: action)
            }
            #expect(rebuilt.present == live.present, "after \(then)")
            #expect(rebuilt.currentVersionTags == live.currentVersionTags, "after \(then)")
            for tag in ["t1", "t2"] { #expect(rebuilt.location(of: tag) == live.location(of: tag), "\(tag) after \(then)") }
        }
        var abandoned = state
        for action: UndoableAction<Shelf.Action> in [.undoAndPopCurrentScope, .undo] { _ = reducer.reduce(into: &abandoned, action: action) }
        #expect(abandoned.currentVersionTags == ["t1", "t2"])
    }
}
