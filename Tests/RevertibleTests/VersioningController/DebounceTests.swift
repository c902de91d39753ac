import Foundation
import Testing
import Revertible
import TestSupport

/// Seed 004's typing example, measured by a manual clock.
@Suite("Debouncing")
struct DebounceTests {

    private func type(_ text: String, into controller: VersioningController<Activity, Activity, HistoryError>, activity: inout Activity, clock: TestClock, gap: Duration) {
        for character in text {
            activity.title.append(character)
            controller.append(activity)
            clock.advance(by: gap)
        }
    }

    @Test("Without debouncing, every character is a step")
    func everyCharacterIsAStep() throws {
        var activity = Activity.mock(title: "")
        let controller = VersioningController(activity)
        for character in "New title" {
            activity.title.append(character)
            controller.append(activity)
        }
        try controller.undo(&activity)
        #expect(activity.title == "New titl")
    }

    @Test("A burst within the interval is one step")
    func burstIsOneStep() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "Title")
        let controller = VersioningController(activity, debounceInterval: .milliseconds(200), clock: clock)
        activity.title = ""
        controller.append(activity)
        type("New title", into: controller, activity: &activity, clock: clock, gap: .milliseconds(50))
        #expect(controller.undoCount == 1)
        try controller.undo(&activity)
        #expect(activity.title == "Title")
        try controller.redo(&activity)
        #expect(activity.title == "New title")
    }

    @Test("A pause longer than the interval starts a new step")
    func pauseStartsNewStep() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "")
        let controller = VersioningController(activity)
        controller.withDebouncing(clock: clock, interval: .milliseconds(200))
        type("New", into: controller, activity: &activity, clock: clock, gap: .milliseconds(10))
        clock.advance(by: .seconds(1))
        type(" title", into: controller, activity: &activity, clock: clock, gap: .milliseconds(10))
        #expect(controller.undoCount == 2)
        try controller.undo(&activity)
        #expect(activity.title == "New")
    }

    @Test("withDebouncing(interval: nil) stops grouping: each change is a step again")
    func debouncingStops() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "")
        let controller = VersioningController(activity)
        controller.withDebouncing(clock: clock, interval: .milliseconds(200))
        type("ab", into: controller, activity: &activity, clock: clock, gap: .milliseconds(10))
        #expect(controller.undoCount == 1)
        controller.withDebouncing(clock: clock, interval: nil)
        type("cd", into: controller, activity: &activity, clock: clock, gap: .milliseconds(10))
        #expect(controller.undoCount == 3)
        try controller.undo(&activity)
        #expect(activity.title == "abc")
    }

    @Test("Undo during a burst commits the burst first: nothing typed is lost")
    func undoDuringBurst() throws {
        let clock = TestClock()
        var activity = Activity.mock(title: "")
        let controller = VersioningController(activity, debounceInterval: .milliseconds(200), clock: clock)
        type("Hel", into: controller, activity: &activity, clock: clock, gap: .milliseconds(10))
        activity.title.append("lo") // typed, not yet appended
        try controller.undo(&activity)
        #expect(activity.title == "")
        try controller.redo(&activity)
        #expect(activity.title == "Hello")
        type("!", into: controller, activity: &activity, clock: clock, gap: .milliseconds(10))
        #expect(controller.undoCount == 2)
    }

    @Test("A burst that cancels out leaves no step")
    func cancellingBurst() {
        let clock = TestClock()
        var activity = Activity.mock(title: "Same")
        let controller = VersioningController(activity, debounceInterval: .milliseconds(200), clock: clock)
        activity.title = "Samex"
        controller.append(activity)
        activity.title = "Same"
        controller.append(activity)
        #expect(!controller.hasUndo)
    }

    @Test("@Versioned debounces too")
    func versionedDebounce() {
        let clock = TestClock()
        struct Holder {
            @Versioned var activity: Activity

            init(clock: TestClock) {
                _activity = Versioned(wrappedValue: .mock(), debounceInterval: .milliseconds(200), clock: clock)
            }
        }
        let holder = Holder(clock: clock)
        holder.activity.title = "N"
        holder.activity.title += "ew"
        holder.$activity.undo()
        #expect(holder.activity.title == "Title")
    }
}
