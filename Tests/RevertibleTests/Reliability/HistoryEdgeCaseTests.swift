import Testing
import Revertible
import TestSupport

/// Bugs the model-based tests found, each kept as a plain example. The seed is the one that
/// found it (`RANDOMIZED_SEED=<seed> swift test --filter ControllerModelReliabilityTests`).
@Suite("Reliability: history edge cases (trimmed scopes, tags at scope starts, re-spelled strings, bursts)")
struct HistoryEdgeCaseReliabilityTests {

    /// Seed 8: the limit dropped a scope's first steps, and the squash then started from the
    /// oldest kept version instead of where the scope started.
    @Test("A scope whose first steps the limit dropped still pops into one step from where it started")
    func trimmedScopePopsFromItsStart() throws {
        var activity = Activity.mock(title: "Before")
        let controller = VersioningController(activity, historyLimit: 2)
        controller.pushNewScope()
        for title in ["A", "B", "C"] {
            activity.title = title
            controller.append(activity)
        }
        #expect(controller.undoCount == 2)
        try controller.popCurrentScope()
        try controller.undo(&activity)
        #expect(activity.title == "Before")
    }

    @Test("A scope whose first steps the limit dropped is discarded back to where it started")
    func trimmedScopeDiscardsToItsStart() throws {
        let model = Model()
        model.activity.title = "Before"
        let controller = VersioningController(on: model, at: \.activity, historyLimit: 0)
        controller.pushNewScope()
        model.activity.title = "Discarded"
        controller.appendCurrentVersion()
        #expect(!controller.hasUndo)
        try controller.undoAndPopCurrentScope()
        #expect(model.activity.title == "Before")
        #expect(controller.currentVersion.title == "Before")
    }

    /// Seed 22: popping a scope whose newest step had no tag gave the squashed step the tag of
    /// the scope's first version, so `undo(to:)` that tag stopped on the wrong version. A tag
    /// names a version: the scope's start is the version before the squashed step.
    @Test("A tag on a scope's first version stays on that version, before the squashed step")
    func baseTagStaysOffTheSquashedStep() throws {
        var activity = Activity.mock(title: "Before")
        let controller = VersioningController(activity)
        controller.pushNewScope()
        controller.tag("start")
        activity.title = "Inside"
        controller.append(activity)
        try controller.popCurrentScope()
        #expect(controller.tags().undo == ["start", nil])
        #expect(controller.location(of: "start") == .behind(steps: 1))
    }

    @Test("A scope with no steps gives its first version's tag to the version it ended on")
    func emptyScopeKeepsItsTag() throws {
        let controller = VersioningController(Activity.mock())
        controller.pushNewScope()
        controller.tag("start")
        try controller.popCurrentScope()
        #expect(controller.tags().undo == ["start"])
    }

    /// Seed 1001 (`RANDOMIZED_FIRST_SEED=1000`, 300 operations): a string re-spelled in a
    /// canonically equivalent form is equal, so no step records it; but the history took the
    /// new spelling as its current version, and the older steps at that string, which check
    /// its exact bytes, could never be undone again.
    @Test("A canonically equivalent re-spelling of a string never blocks undoing older steps")
    func canonicallyEquivalentRespelling() throws {
        var activity = Activity.mock(title: "cafe")
        let controller = VersioningController(activity)
        activity.title = "caf\u{E9}"
        controller.append(activity)
        activity.title = "cafe\u{301}"
        controller.append(activity)
        #expect(controller.undoCount == 1)
        try controller.undo(&activity)
        #expect(Array(activity.title.utf8) == Array("cafe".utf8))
        try controller.redo(&activity)
        #expect(activity.title == "caf\u{E9}")
    }

    @Test("A re-spelled string next to a real change never blocks undoing older steps")
    func respellingNextToAChange() throws {
        var activity = Activity.mock(title: "cafe")
        let controller = VersioningController(on: activity, at: \.self)
        activity.title = "caf\u{E9}"
        controller.append(root: activity)
        activity.title = "cafe\u{301}"
        activity.priority = .medium(dueDate: nil)
        controller.append(root: activity)
        try controller.undo(root: &activity)
        try controller.undo(root: &activity)
        #expect(activity.title == "cafe" && activity.priority == .low)
    }

    /// Seed 7 (debouncing, operations taking no time): popping the outermost scope did not
    /// close the open burst, so the next change joined the step before.
    @Test("Every operation but recording closes a debounce burst, even one that changes nothing")
    func noOpClosesABurst() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "")
        let controller = VersioningController(activity, debounceInterval: .seconds(1), clock: clock)
        activity.title = "typed"
        controller.append(activity)
        #expect(throws: HistoryError.noScopeToPop) { try controller.popCurrentScope() }
        clock.advance(by: .milliseconds(10))
        activity.title = "typed, then more"
        controller.append(activity)
        #expect(controller.undoCount == 2)
    }

    @Test("Tagging during a debounce burst closes it: the tag keeps naming the tagged version")
    func taggingClosesABurst() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "")
        let controller = VersioningController(activity, debounceInterval: .seconds(1), clock: clock)
        activity.title = "draft"
        controller.append(activity)
        controller.tag("draft")
        clock.advance(by: .milliseconds(10))
        activity.title = "draft, more"
        controller.append(activity)
        try controller.undo(&activity, to: "draft")
        #expect(activity.title == "draft")
    }

    /// Seed 20773 (`RANDOMIZED_FIRST_SEED=20000`, 300 operations, object root, debouncing): a
    /// burst's step was diffed from the appended value, spelled differently from the history's
    /// own current version, so undoing it failed.
    @Test("A debounce burst's step undoes even when the appended value spells a string differently")
    func burstWithRespelledString() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "cafe")
        let controller = VersioningController(activity, debounceInterval: .seconds(1), clock: clock)
        activity.title = "caf\u{E9}"
        controller.append(activity)
        clock.advance(by: .milliseconds(10))
        activity.title = "cafe\u{301}"
        activity.priority = .medium(dueDate: nil)
        controller.append(activity)
        #expect(controller.undoCount == 1)
        try controller.undo(&activity)
        #expect(activity.title == "cafe" && activity.priority == .low)
    }

    /// Seed 67 (debouncing, with tree moves in the mix): a burst whose last change re-spelled a
    /// string back to its value before the burst (`"e\u{301}é"` as `"ée\u{301}"`) gave a step
    /// that no longer wrote the string, while the history kept the re-spelling, so the step
    /// before the burst, which checks the string's exact bytes, refused.
    @Test("A burst that re-spells a string back to its start keeps the steps before it undoable")
    func burstBackToReSpelledString() throws {
        let clock = TestClock()
        let controller = VersioningController(Note(title: "x", cursor: 0), debounceInterval: .seconds(1), clock: clock)
        clock.advance(by: .seconds(10))
        controller.append(Note(title: "e\u{301}\u{E9}", cursor: 0))
        controller.tag("before the burst")
        clock.advance(by: .milliseconds(10))
        controller.append(Note(title: "zz", cursor: 1))
        clock.advance(by: .milliseconds(10))
        controller.append(Note(title: "\u{E9}e\u{301}", cursor: 1))
        #expect(controller.undoCount == 2 && controller.steps().undo.map(\.changeCount) == [1, 2])
        #expect(Array(try controller.undo().title.utf8) == Array("e\u{301}\u{E9}".utf8))
        #expect(try controller.undo().title == "x")
        #expect(try controller.redo(to: .steps(2)) == Note(title: "\u{E9}e\u{301}", cursor: 1))
    }
}
