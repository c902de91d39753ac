import Foundation
import Observation
import Testing
import Revertible

@Observable
final class ObservableModel {
    var activity = Activity.mock()
    var versioningError: (any Error)?
    var unrelated = 0
}

/// `@Observable` roots are recorded without `append`, and the controller is observable itself.
@Suite("Observation")
struct ObservationTests {

    @Test("Every change of an observed property is its own step; undo and redo are not recorded")
    func automaticTracking() throws {
        let model = ObservableModel()
        let controller = VersioningController(observing: model, at: \.activity)

        model.activity.title = "New title"
        model.activity.priority = .high(dueDate: .now, reason: "Important reason")
        model.activity.childActivities.append(.mock())

        try controller.undo()
        #expect(model.activity.childActivities.isEmpty)
        #expect(model.activity.priority != .low)
        try controller.undo()
        #expect(model.activity.priority == .low)
        try controller.undo()
        #expect(model.activity.title == "Title")
        try controller.redo()
        #expect(model.activity.title == "New title")
        #expect(controller.undoCount == 1)
        #expect(controller.redoCount == 2)
    }

    @Test("A change after undo clears redo, and changes to other properties are ignored")
    func changeAfterUndo() throws {
        let model = ObservableModel()
        let controller = VersioningController(observing: model, at: \.activity)
        model.activity.title = "A"
        model.activity.title = "B"
        try controller.undo()
        #expect(model.activity.title == "A")
        model.unrelated += 1
        model.activity.title = "C"
        #expect(!controller.hasRedo)
        try controller.undo()
        #expect(model.activity.title == "A")
        try controller.undo()
        #expect(model.activity.title == "Title")
        #expect(!controller.hasUndo)
    }

    @Test("Errors go to the root's error key path")
    func errorKeyPath() {
        let model = ObservableModel()
        let controller = VersioningController(observing: model, at: \.activity, errorKeyPath: \.versioningError)
        controller.conflictPolicy = .refuse
        model.activity.title = "New title"
        #expect(controller.hasUndo)
        controller.setWithoutTracking(Activity(id: model.activity.id, title: "Elsewhere", priority: .low, childActivities: []))
        model.activity.title = "Elsewhere"
        controller.undo()
        #expect((model.versioningError as? HistoryError)?.isConflict == true)
        #expect(controller.error?.isConflict == true)
        #expect(model.activity.title == "Elsewhere")
    }

    @Test("Observers of hasUndo are told when a change is recorded")
    func controllerIsObservable() {
        let model = ObservableModel()
        let controller = VersioningController(observing: model, at: \.activity)
        let fired = Flag()
        withObservationTracking {
            _ = controller.hasUndo
        } onChange: {
            fired.set()
        }
        model.activity.title = "New title"
        #expect(fired.isSet)
        #expect(controller.hasUndo)
    }

    @Test("Observers of scopeLevel are told when a scope is pushed")
    func scopeLevelIsObservable() {
        let controller = VersioningController(Activity.mock())
        let fired = Flag()
        withObservationTracking {
            _ = controller.scopeLevel
        } onChange: {
            fired.set()
        }
        controller.pushNewScope()
        #expect(fired.isSet)
        #expect(controller.scopeLevel == 1)
    }

    @Test("The observing controller does not keep the model alive")
    func observingIsWeak() {
        var model: ObservableModel? = ObservableModel()
        weak let weakModel = model
        let controller = VersioningController(observing: model!, at: \.activity)
        model!.activity.title = "Changed"
        model = nil
        #expect(weakModel == nil)
        #expect(controller.undoCount <= 1)
    }
}

/// A thread-safe flag for observation callbacks.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
