import Foundation
import Testing
import Revertible

@Suite("Error modes and history limit")
struct ErrorAndLimitTests {

    /// A controller whose current version disagrees with its newest step, and that refuses
    /// conflicts (issue 24: by default undo skips them), so undo must fail.
    private func brokenController() -> (VersioningController<Activity, Activity, HistoryError>, Activity) {
        var activity = Activity.mock()
        let controller = VersioningController(activity)
        controller.conflictPolicy = .refuse
        activity.title = "Recorded"
        controller.append(activity)
        activity.title = "Untracked"
        controller.setWithoutTracking(activity)
        return (controller, activity)
    }

    @Test("Failure == HistoryError: a failing undo throws and changes nothing")
    func throwingMode() {
        var (controller, activity) = brokenController()
        let error = #expect(throws: HistoryError.self) { try controller.undo(&activity) }
        #expect(error?.isConflict == true)
        #expect(activity.title == "Untracked")
        #expect(controller.undoCount == 1)
        #expect(controller.error?.isConflict == true)
    }

    @Test("Failure == Never: errors are written to the root's error key path")
    func assigningMode() {
        let model = Model()
        let controller = VersioningController(on: model, at: \.activity, errorKeyPath: \.error)
        controller.conflictPolicy = .refuse
        model.activity.title = "Recorded"
        controller.appendCurrentVersion()
        model.activity.title = "Untracked"
        controller.setWithoutTracking(model.activity)
        controller.undo()
        #expect((model.error as? HistoryError)?.isConflict == true)
        #expect(model.activity.title == "Untracked")
    }

    @Test("@Versioned stores errors in $value.error; @ThrowingVersioned throws them")
    func propertyWrapperErrors() {
        struct Holder {
            @Versioned var activity = Activity.mock()
            @ThrowingVersioned var throwing = Activity.mock()
        }
        let holder = Holder()
        holder.activity.title = "Recorded"
        holder.$activity.setWithoutTracking(Activity(id: holder.activity.id, title: "Untracked", priority: .low, childActivities: []))
        holder.$activity.undo(onConflict: .refuse)
        #expect(holder.$activity.error?.isConflict == true)
        #expect(holder.activity.title == "Untracked")

        holder.throwing.title = "Recorded"
        holder.$throwing.setWithoutTracking(Activity(id: holder.throwing.id, title: "Untracked", priority: .low, childActivities: []))
        #expect { try holder.$throwing.undo(onConflict: .refuse) } throws: { ($0 as? HistoryError)?.isConflict == true }
        holder.$throwing.removeAllVersions()
        #expect(!holder.$throwing.hasUndo)
    }

    @Test("One step with nothing to undo or redo does nothing; popping, too many steps and unknown tags are refused")
    func misuse() throws {
        var activity = Activity.mock()
        let controller = VersioningController(activity)
        try controller.undo(&activity)
        try controller.redo(&activity)
        #expect(throws: HistoryError.noScopeToPop) { try controller.popCurrentScope() }
        #expect(throws: HistoryError.noScopeToPop) { try controller.undoAndPopCurrentScope(&activity) }
        #expect(throws: HistoryError.stepsOutOfRange(requested: 5, available: 0)) { try controller.undo(to: .steps(5)) }
        #expect(throws: HistoryError.unknownTag("nothing")) { try controller.redo(to: "nothing") }
        #expect(activity == Activity.mock(title: "Title").with(id: activity.id))
        #expect(controller.scopeLevel == 0 && !controller.hasUndo && !controller.hasRedo)
    }

    @Test("The history limit drops the oldest steps first; inside a scope it trims only that scope, and the scope below once it ends")
    func historyLimit() throws {
        var activity = Activity.mock()
        let controller = VersioningController(activity, historyLimit: 2)
        for title in ["A", "B", "C"] {
            activity.title = title
            controller.append(activity)
        }
        #expect(controller.undoCount == 2)
        try controller.undo(&activity)
        try controller.undo(&activity)
        try controller.undo(&activity)
        #expect(activity.title == "A")

        controller.historyLimit = 1
        try controller.redo(&activity)
        #expect(controller.undoCount == 1)
        controller.pushNewScope()
        activity.title = "Scoped"
        controller.append(activity)
        #expect(controller.undoCount == 1)
        try controller.popCurrentScope()
        #expect(controller.undoCount == 1)
        try controller.undo(&activity)
        #expect(activity.title == "B")
    }
}

extension Activity {
    func with(id: UUID) -> Activity {
        Activity(id: id, title: title, priority: priority, childActivities: childActivities)
    }
}
