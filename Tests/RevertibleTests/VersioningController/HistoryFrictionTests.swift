import Foundation
import Observation
import Revertible
import Testing

/// What apps hit with time, grouping and chronological moves (issue 22: bug 6, the clamped
/// moves, `stopGrouping()`).
@Suite("History time, grouping and clamped moves")
struct HistoryFrictionTests {

    /// The times of the current scope's steps, oldest first.
    private func times(_ controller: VersioningController<String, String, HistoryError>) -> [Duration] {
        controller.steps().undo.map(\.time)
    }

    @Test("A new clock given by withDebouncing never puts a step before older ones")
    func newClockKeepsTimesInOrder() throws {
        let first = TestClock()
        let controller = VersioningController("", clock: first)
        first.advance(by: .seconds(3_600))
        controller.append("a")
        first.advance(by: .seconds(1_800))
        controller.append("b")
        let second = TestClock()
        controller.withDebouncing(clock: second, interval: .seconds(1))
        second.advance(by: .seconds(600))
        controller.append("c")
        second.advance(by: .seconds(300))
        controller.append("d")
        let times = times(controller)
        #expect(times == times.sorted(), "times went backwards: \(times)")
        #expect(times[3] - times[2] == .seconds(300), "the new clock's spacing is kept")
        #expect(try controller.move(to: .earlier(by: .seconds(200))) == "c")
    }

    @Test("A reloaded history with a new clock keeps its times in order, so earlier(by:) stays near")
    func reloadKeepsTimesInOrder() throws {
        let first = TestClock()
        let saved = VersioningController("", clock: first)
        for text in ["a", "b", "c"] {
            first.advance(by: .seconds(600))
            saved.append(text)
        }
        let archive = try JSONDecoder().decode(HistoryArchive<String>.self, from: JSONEncoder().encode(saved.archive))

        let second = TestClock()
        let loaded = VersioningController("c", clock: second)
        try loaded.restoreHistory(from: archive)
        second.advance(by: .seconds(60))
        loaded.append("d")
        second.advance(by: .seconds(60))
        loaded.append("e")
        let times = times(loaded)
        #expect(times == times.sorted(), "times went backwards: \(times)")
        // e is 1 minute after d, which is no older than c (30 minutes): 10 minutes back is b,
        // not the very start of the history.
        #expect(try loaded.move(to: .earlier(by: .seconds(600))) == "b")
    }

    @Test("A test clock's times are its own readings, whenever the history met it")
    func testClockTimesAreItsReadings() {
        let clock = TestClock()
        clock.advance(by: .seconds(90))
        let controller = VersioningController("", clock: clock)
        clock.advance(by: .seconds(10))
        controller.append("a")
        #expect(times(controller) == [.seconds(100)])
    }

    @Test("earlier(n) and later(n) past either end stop there; a negative count is refused")
    func countedMovesClamp() throws {
        let controller = VersioningController("")
        for text in ["a", "b", "c"] { controller.append(text) }
        try controller.undo()
        #expect(try controller.move(to: .earlier(9)) == "", "the oldest version")
        #expect(controller.error == nil)
        #expect(try controller.move(to: .later(9)) == "c", "the newest version")
        #expect(try controller.move(to: .later(.max)) == "c")
        #expect(try controller.move(to: .earlier(.max)) == "")
        #expect(throws: HistoryError.stepsOutOfRange(requested: -1, available: 3)) { try controller.move(to: .later(-1)) }
        #expect(controller.currentVersion == "")
    }

    @Test("The oldest and newest destinations, on any branch, inside a scope")
    func oldestAndNewest() throws {
        let controller = VersioningController("")
        controller.append("a")
        controller.pushNewScope()
        controller.append("b")
        controller.append("c")
        try controller.undo()
        controller.append("x")
        try controller.undo()
        #expect(try controller.move(to: .oldest) == "a", "where the scope started, not the outer scope's start")
        #expect(try controller.move(to: .newest) == "x", "made last, on the branch undo left")
        #expect(try controller.move(to: .newest) == "x", "already there: nothing to do")
        try controller.popCurrentScope()
        #expect(try controller.move(to: .oldest) == "")
    }

    @Test("stopGrouping ends a burst inside the interval; the burst after it groups again")
    func stopGroupingEndsBurst() throws {
        let clock = TestClock()
        let controller = VersioningController("", debounceInterval: .seconds(1), clock: clock)
        controller.append("H")
        controller.append("Hi")
        controller.stopGrouping()
        controller.append("Hi,")
        controller.append("Hi, you")
        #expect(controller.undoCount == 2)
        #expect(try controller.undo() == "Hi")
        #expect(try controller.undo() == "")
    }

    @Test("stopGrouping on a @Versioned projection")
    func stopGroupingOnVersioned() {
        struct Editor {
            @Versioned(debounceInterval: .seconds(1), clock: TestClock()) var text = ""
        }
        let editor = Editor()
        editor.text = "a"
        editor.text = "ab"
        editor.$text.stopGrouping()
        editor.text = "abc"
        #expect(editor.$text.undoCount == 2)
        editor.$text.undo()
        #expect(editor.text == "ab")
    }

    @Test("stopGrouping records an observed root's pending change into the group first")
    func stopGroupingFlushesObservedChange() throws {
        let clock = TestClock()
        let note = ObservedNote()
        let controller = VersioningController(observing: note, at: \.text, debounceInterval: .seconds(1), clock: clock)
        note.text = "a"
        note.text = "ab"
        controller.stopGrouping()
        note.text = "abc"
        #expect(controller.undoCount == 2)
        try controller.undo()
        #expect(note.text == "ab")
    }
}

@Observable
private final class ObservedNote {
    var text = ""
}
