import Foundation
import Testing
import Revertible

/// Seed 004's scope, tag and transaction examples, on `@Versioned` (the seed's `@Versioning`
/// written by hand) and on the controller.
@Suite("Scopes, tags and transactions")
struct ScopeAndTagTests {

    struct SeedModel {
        @Versioned var activity = Activity.mock()
    }

    @Test("Seed: basic usage through the projected value")
    func basicUsage() {
        let model = SeedModel()
        model.activity.title = "New title"
        model.activity.priority = .high(dueDate: .now, reason: "Important reason")
        model.activity.childActivities.append(.mock())
        model.$activity.undo()
        #expect(model.activity.childActivities == [])
        model.$activity.undo()
        #expect(model.activity.priority == .low)
        model.$activity.undo()
        #expect(model.activity.title == "Title")
        model.$activity.redo()
        #expect(model.activity.title == "New title")
    }

    @Test("Seed: a transaction is undone by one undo")
    func transaction() {
        let model = SeedModel()
        model.$activity.setWithTransaction { activity in
            activity.title = "New title"
            activity.priority = .medium(dueDate: nil)
        }
        #expect(model.$activity.undoCount == 1)
        model.$activity.undo()
        #expect(model.activity.title == "Title" && model.activity.priority == .low)
    }

    @Test("An asynchronous transaction is one step too")
    func asyncTransaction() async {
        let model = SeedModel()
        await model.$activity.setWithTransaction { activity in
            activity.title = "New title"
            await Task.yield()
            activity.priority = .medium(dueDate: nil)
        }
        #expect(model.activity.title == "New title")
        #expect(model.$activity.undoCount == 1)
        model.$activity.undo()
        #expect(model.activity.title == "Title" && model.activity.priority == .low)
    }

    @Test("Seed: a popped scope is squashed into one step on the scope below")
    func scopes() {
        let model = SeedModel()
        model.activity.title = "New title"
        model.$activity.pushNewScope()
        #expect(model.$activity.scopeLevel == 1 && !model.$activity.hasUndo)
        model.activity.priority = .medium(dueDate: nil)
        model.activity.childActivities.append(.mock())
        model.$activity.popCurrentScope()
        #expect(model.$activity.scopeLevel == 0 && model.$activity.hasUndo)
        model.$activity.undo()
        #expect(model.activity.childActivities == [] && model.activity.priority == .low)
        #expect(model.activity.title == "New title")
    }

    @Test("Undo and redo never leave the current scope")
    func undoStaysInScope() {
        let model = SeedModel()
        model.activity.title = "Outside"
        model.$activity.pushNewScope()
        model.activity.title = "Inside"
        model.$activity.undo()
        model.$activity.undo()
        #expect(model.activity.title == "Outside")
        #expect(model.$activity.scopeLevel == 1)
        model.$activity.redoCurrentScope()
        #expect(model.activity.title == "Inside")
        model.$activity.undoCurrentScope()
        #expect(model.activity.title == "Outside")
        #expect(model.$activity.scopeLevel == 1)
    }

    @Test("Abandoning a scope undoes it and pops it")
    func abandonScope() {
        let model = SeedModel()
        model.activity.title = "Kept"
        model.$activity.pushNewScope()
        model.activity.title = "Abandoned"
        model.activity.priority = .medium(dueDate: nil)
        model.$activity.undoAndPopCurrentScope()
        #expect(model.activity.title == "Kept" && model.activity.priority == .low)
        #expect(model.$activity.scopeLevel == 0)
        #expect(model.$activity.undoCount == 1)
        #expect(!model.$activity.hasRedo)
    }

    @Test("Popping or abandoning the outermost scope does nothing")
    func outermostScope() {
        let model = SeedModel()
        model.activity.title = "A"
        model.$activity.popCurrentScope()
        model.$activity.undoAndPopCurrentScope()
        #expect(model.activity.title == "A")
        #expect(model.$activity.scopeLevel == 0 && model.$activity.undoCount == 1)
    }

    @Test("Seed: tags name versions; undo to a tag stops on it")
    func tags() {
        let model = SeedModel()
        model.$activity.tag("original")
        model.activity.title = "New title"
        model.activity.priority = .medium(dueDate: nil)
        model.$activity.tag("without-child")
        model.activity.childActivities = Activity.mock(count: 3)
        model.$activity.tag("with-child")

        model.$activity.undo(to: "without-child")
        #expect(model.activity.childActivities == [])
        let tags = model.$activity.tags()
        #expect(tags.undo == ["original", nil, "without-child"])
        #expect(tags.redo == ["with-child"])

        model.$activity.undo(to: "original")
        #expect(model.activity == SeedModel.original(of: model.activity))
        model.$activity.redo(to: "without-child")
        #expect(model.activity.priority == .medium(dueDate: nil) && model.activity.childActivities.isEmpty)
        model.$activity.redo(to: "with-child")
        #expect(model.activity.childActivities.count == 3)
    }

    @Test("An unknown tag is refused; tagging again moves a tag; a tag before a push is the scope's start")
    func tagEdgeCases() {
        let model = SeedModel()
        model.activity.title = "One"
        model.$activity.tag("mark")
        model.activity.title = "Two"
        model.$activity.tag("mark")
        model.$activity.undo(to: "nowhere")
        #expect(model.$activity.error == .unknownTag("nowhere"))
        #expect(model.activity.title == "Two")
        #expect(model.$activity.tags().undo == [nil, nil, "mark"])

        model.$activity.pushNewScope()
        #expect(model.$activity.tags().undo == ["mark"])
        model.activity.title = "Three"
        model.$activity.undo(to: "mark")
        #expect(model.activity.title == "Two" && model.$activity.scopeLevel == 1)
        #expect(model.$activity.tags(inScopeLevel: 0)!.undo == [nil, nil, "mark"])
        #expect(model.$activity.tags(inScopeLevel: 2) == nil)
    }

    @Test("A squashed scope keeps the tag of the version it ended on")
    func squashedScopeKeepsTag() {
        let model = SeedModel()
        model.$activity.pushNewScope()
        model.activity.title = "Inside"
        model.$activity.tag("end")
        model.$activity.popCurrentScope()
        #expect(model.$activity.tags().undo == [nil, "end"])
    }

    @Test("A tag moved inside a scope goes back where it was when the scope is abandoned")
    func movedTagRestoredOnAbandon() throws {
        let model = SeedModel()
        model.activity.title = "One"
        model.$activity.tag("t")
        model.$activity.tag("other")
        model.$activity.pushNewScope()
        model.activity.title = "Two"
        model.$activity.tag("t")
        model.activity.title = "Three"
        model.$activity.tag("t")
        #expect(model.$activity.location(of: "t") == .present)
        model.$activity.undoAndPopCurrentScope()
        #expect(model.activity.title == "One")
        #expect(model.$activity.location(of: "t") == .present)
        #expect(Set(model.$activity.currentVersionTags) == ["t", "other"])
        model.activity.title = "Four"
        model.$activity.undo(to: "t")
        #expect(model.activity.title == "One" && model.$activity.error == nil)
    }

    @Test("A tag moved inside nested scopes goes back one scope at a time; popping keeps the move")
    func movedTagNestedScopes() throws {
        var title = "zero"
        let controller = VersioningController(title)
        title = "one"
        controller.append(title, tag: "t")
        controller.pushNewScope()
        title = "two"
        controller.append(title, tag: "t")
        controller.pushNewScope()
        title = "three"
        controller.append(title, tag: "t")
        try controller.undoAndPopCurrentScope(&title)
        #expect(title == "two" && controller.location(of: "t") == .present)
        controller.pushNewScope()
        title = "four"
        controller.append(title, tag: "t")
        try controller.popCurrentScope()
        #expect(controller.location(of: "t") == .present, "popping keeps the move")
        try controller.undoAndPopCurrentScope(&title)
        #expect(title == "one" && controller.location(of: "t") == .present, "the move made in the popped scope is undone with the outer one")
        #expect(controller.tags().undo == [nil, "t"])
    }

    @Test("A tag moved inside a scope stays moved when the scope is popped")
    func movedTagKeptOnPop() throws {
        var title = "zero"
        let controller = VersioningController(title)
        controller.tag("t")
        controller.pushNewScope()
        title = "one"
        controller.append(title, tag: "t")
        try controller.popCurrentScope()
        #expect(controller.tags().undo == [nil, "t"])
    }

    @Test("Controller: tagged append and tags of every scope")
    func controllerTags() throws {
        var activity = Activity.mock()
        let controller = VersioningController(activity)
        controller.tag("start")
        activity.title = "A"
        controller.append(activity, tag: "a")
        activity.title = "B"
        controller.append(activity)
        try controller.undo(&activity, to: "a")
        #expect(activity.title == "A")
        try controller.undo(&activity, to: "start")
        #expect(activity.title == "Title")
        try controller.redo(&activity, to: "a")
        #expect(activity.title == "A")
        #expect(controller.tags().undo == ["start", "a"])
        #expect(controller.tags().redo == [nil])
    }
}

extension ScopeAndTagTests.SeedModel {
    static func original(of activity: Activity) -> Activity {
        Activity(id: activity.id, title: "Title", priority: .low, childActivities: [])
    }
}
