import Foundation
import Testing
import Revertible

/// Seed 002's three tracking modes, with their exact call shapes.
@Suite("Tracking modes")
struct TrackingModeTests {

    @Test("Direct: append, then undo in place or by return value")
    func direct() throws {
        var activity = Activity.mock()
        let controller = VersioningController(activity)
        #expect(!controller.hasUndo && !controller.hasRedo)

        activity.title = "New title"
        controller.append(activity)
        #expect(controller.hasUndo)
        try controller.undo(&activity)
        #expect(activity.title == "Title")
        #expect(controller.hasRedo && !controller.hasUndo)

        activity = try controller.redo()
        #expect(activity.title == "New title")
        activity = try controller.undo()
        #expect(activity.title == "Title")
        try controller.redo(&activity)
        #expect(activity.title == "New title")
    }

    @Test("Direct: appending an unchanged value records nothing")
    func unchangedAppend() {
        let activity = Activity.mock()
        let controller = VersioningController(activity)
        controller.append(activity)
        #expect(!controller.hasUndo)
    }

    @Test("Direct: an unappended change is recorded before undo, so it is what undo takes back")
    func undoRecordsUnappendedChange() throws {
        var activity = Activity.mock()
        let controller = VersioningController(activity)
        activity.title = "First"
        controller.append(activity)
        activity.title = "Second"
        try controller.undo(&activity)
        #expect(activity.title == "First")
        try controller.redo(&activity)
        #expect(activity.title == "Second")
    }

    @Test("Key path on a value root: only the tracked property counts")
    func valueKeyPath() throws {
        var activity = Activity.mock()
        let controller = VersioningController(on: activity, at: \.priority)

        activity.title = "New title"
        controller.append(root: activity)
        #expect(!controller.hasUndo)

        activity.priority = .medium(dueDate: nil)
        controller.append(activity.priority)
        #expect(controller.hasUndo)

        try controller.undo(root: &activity)
        #expect(activity.priority == .low)
        #expect(activity.title == "New title")
        try controller.redo(root: &activity)
        #expect(activity.priority == .medium(dueDate: nil))
        activity.priority = try controller.undo()
        #expect(activity.priority == .low)
    }

    @Test("Key path on an object: the controller reads and writes the property")
    func referenceKeyPath() throws {
        let model = Model()
        let controller = VersioningController(on: model, at: \.activity)

        model.activity.title = "New title"
        controller.appendCurrentVersion()
        try controller.undo()
        #expect(model.activity.title == "Title")
        try controller.redo()
        #expect(model.activity.title == "New title")

        var copy = model.activity
        try controller.undo(&copy)
        #expect(copy.title == "Title")
    }

    @Test("Key path on an object: tagged appends")
    func referenceTaggedAppend() throws {
        let model = Model()
        let controller = VersioningController(on: model, at: \.activity)
        model.activity.title = "One"
        controller.appendCurrentVersion(tag: "one")
        model.activity.title = "Two"
        controller.appendCurrentVersion()
        try controller.undo(to: "one")
        #expect(model.activity.title == "One")
    }

    @Test("The controller holds its root weakly and does nothing once it is gone")
    func weakRoot() throws {
        var model: Model? = Model()
        weak let weakModel = model
        let controller = VersioningController(on: model!, at: \.activity)
        model!.activity.title = "New title"
        controller.appendCurrentVersion()
        model = nil
        #expect(weakModel == nil)

        let undone = try controller.undo()
        #expect(undone.title == "New title")
        #expect(controller.hasUndo)
        controller.appendCurrentVersion()
        #expect(controller.undoCount == 1)
    }
}

final class Model {
    var activity = Activity.mock()
    var error: (any Error)?
}
