import Revertible
import Testing

/// Issue 29, item 3: no single step can keep a scope from ending.
@Suite("Reliability: every scope can end, whatever its steps")
struct ScopeEndingReliabilityTests {

    /// Three nested scopes, each with a step on the title, then a change made without a
    /// step over the title: no step of any scope applies to it any more.
    private func blockedController() -> ValueVersioningController<NotesDocument> {
        var document = NotesDocument(title: "a", notes: [])
        let controller = ValueVersioningController(document)
        for (index, letter) in ["b", "c", "d"].enumerated() {
            controller.pushNewScope()
            document.title += letter
            document.notes.append(.init(id: index, text: letter))
            controller.append(document)
        }
        document.title = "foreign"
        controller.setWithoutTracking(document)
        return controller
    }

    @Test("Popping squashes what the scope did, leaving another writer's change in place")
    func popSquashesAroundTheOtherWriter() throws {
        let controller = blockedController()
        // Issue 24: the start is found selectively, so no step is left out of the squash.
        try controller.popCurrentScope()
        #expect(controller.scopeLevel == 2)
        try controller.undo()
        #expect(controller.currentVersion.title == "foreign")
        #expect(controller.currentVersion.notes.count == 2)
        try controller.redo()
        #expect(controller.currentVersion.title == "foreign")
        #expect(controller.currentVersion.notes.count == 3)
    }

    @Test("A loop that abandons scopes ends, and so does one that pops them", arguments: [false, true])
    func loopsThatEndScopesEnd(abandoning: Bool) throws {
        let controller = blockedController()
        var rounds = 0
        // Bounded: before the fix, each call threw and the scope stayed, for ever.
        while controller.scopeLevel > 0, rounds < 10 {
            rounds += 1
            if abandoning {
                _ = try? controller.undoAndPopCurrentScope()
            } else {
                try? controller.popCurrentScope()
            }
        }
        #expect(controller.scopeLevel == 0)
        #expect(rounds == 3)
        // The outermost scope holds what was squashed; its undo and redo work to both ends.
        while controller.hasUndo { try controller.undo() }
        while controller.hasRedo { try controller.redo() }
        #expect(controller.currentVersion.title == "foreign")
    }

    @Test("Abandoning a scope whose steps all apply is still all or nothing")
    func abandoningStillUndoes() throws {
        var document = NotesDocument(title: "a", notes: [])
        let controller = ValueVersioningController(document)
        controller.pushNewScope()
        document.title = "ab"
        controller.append(document)
        try controller.undoAndPopCurrentScope()
        #expect(controller.scopeLevel == 0)
        #expect(controller.currentVersion.title == "a")
        #expect(!controller.hasUndo)
    }
}
