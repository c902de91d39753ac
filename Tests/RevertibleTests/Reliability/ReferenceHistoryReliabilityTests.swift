import Testing
import TestSupport

/// The reference model against the seed README's examples, so the specification the
/// randomized tests hold the controller to is itself the seed's.
@Suite("Reliability: the reference model follows the seed")
struct ReferenceHistoryReliabilityTests {

    @Test("Seed: tags name versions; undo to a tag stops on it, redo to a tag includes it")
    func tags() {
        var history = ReferenceHistory("Title")
        history.tag("original")
        history.record("New title")
        history.record("New title, medium")
        history.tag("without-child")
        history.record("New title, medium, children")
        history.tag("with-child")

        history.undo(to: "without-child")
        #expect(history.current == "New title, medium")
        #expect(history.tags(inScopeLevel: 0)!.undo == ["original", nil, "without-child"])
        #expect(history.tags(inScopeLevel: 0)!.redo == ["with-child"])
        history.undo(to: "original")
        history.redo(to: "without-child")
        #expect(history.current == "New title, medium")
    }

    @Test("Seed: a popped scope is one step on the scope below; undo never leaves a scope")
    func scopes() {
        var history = ReferenceHistory("Title")
        history.record("New title")
        history.pushScope()
        history.record("New title, medium")
        history.record("New title, medium, child")
        #expect(history.undo(steps: 5) == .stepsOutOfRange && history.current == "New title, medium, child")
        history.undo(steps: 2)
        #expect(history.current == "New title" && history.scopeLevel == 1)
        history.redo(steps: 2)
        history.popScope()
        #expect(history.scopeLevel == 0 && history.undoCount == 2)
        history.undo()
        #expect(history.current == "New title")
    }

    @Test("The limit drops the oldest versions, outermost scope first; a dropped step's tag stays on its version")
    func limit() {
        var history = ReferenceHistory("A", limit: 2)
        history.record("B", tag: "b")
        history.record("C")
        history.record("D")
        #expect(history.tags(inScopeLevel: 0)!.undo == ["b", nil, nil], "A went; B is the base")
        #expect(history.undo(steps: 5) == .stepsOutOfRange)
        history.undo(steps: 2)
        #expect(history.current == "B")
        history.redo(steps: 2)
        history.limit = 1
        #expect(history.tags(inScopeLevel: 0)!.undo == [nil, nil], "B went with its tag")
        #expect(history.current == "D")
    }

    @Test("A grouped recording joins the open group's step; coming back to where it started drops it")
    func grouping() {
        var history = ReferenceHistory("")
        history.record("a")
        history.record("ab", grouped: true)
        history.record("abc", grouped: true)
        #expect(history.undoCount == 1 && history.current == "abc")
        history.record("", grouped: true)
        #expect(history.undoCount == 0)
        history.record("x")
        history.tag("x")
        history.record("xy", grouped: true)
        #expect(history.undoCount == 2, "tagging closed the group")
    }
}
