import Foundation
import Testing
import Revertible

/// Code written for the original library compiles where it costs little, and one tag type
/// serves every history view.
@Suite("Original library spellings and tag types")
struct SeedCompatibilityTests {

    enum Checkpoint: Hashable, Sendable {
        case imported, saved
    }

    @Test("tags() and steps() speak HistoryTag")
    func oneTagType() {
        let controller = ValueVersioningController("")
        controller.tag(Checkpoint.imported)
        controller.append("a")
        controller.tag(7)
        let tags: (undo: [HistoryTag?], redo: [HistoryTag?]) = controller.tags()
        #expect(tags.undo == [HistoryTag(Checkpoint.imported), HistoryTag(7)])
        #expect(tags.undo.last == 7)
        #expect(controller.steps().undo.map(\.tags) == [[HistoryTag(7)]])
        // The same tag, whichever view it came from.
        #expect(tags.undo.last! == controller.steps().undo.last!.tags.first)
        #expect(controller.tags(inScopeLevel: 0)!.undo.first! == HistoryTag(Checkpoint.imported))
    }

    @Test("tagCurrentVersion(_:) still tags")
    @available(*, deprecated)
    func tagCurrentVersion() throws {
        let controller = ValueVersioningController("")
        controller.append("a")
        controller.tagCurrentVersion("a")
        controller.append("ab")
        #expect(try controller.undo(to: "a") == "a")
    }

    @Test("Tags of any type are passed directly, an integer literal included")
    func tagsPassedDirectly() throws {
        var value = "a"
        let controller = ValueVersioningController(value)
        controller.tag(1)
        controller.append("ab")
        controller.tag(2)
        controller.append("abc")
        controller.tag(Checkpoint.saved)
        controller.append("abcd")

        #expect(try controller.undo(to: Checkpoint.saved) == "abc")
        #expect(try controller.undo(to: 2) == "ab")
        #expect(try controller.redo(to: Checkpoint.saved) == "abc")
        value = controller.currentVersion
        try controller.undo(&value, to: 1)
        #expect(value == "a")
        try controller.redo(&value, to: 2)
        #expect(value == "ab")
        // Steps are still steps.
        #expect(try controller.redo(to: .steps(2)) == "abcd")
        #expect(throws: HistoryError.unknownTag(HistoryTag(3))) { try controller.undo(to: 3) }

        struct Root { var text: String }
        var root = Root(text: "x")
        let keyed = VersioningController(on: root, at: \Root.text)
        keyed.tag(Checkpoint.imported)
        root.text = "xy"
        keyed.append(root: root)
        try keyed.undo(root: &root, to: Checkpoint.imported)
        #expect(root.text == "x")
        try keyed.redo(root: &root, to: .steps(1))
        #expect(root.text == "xy")
    }

    @Test("@Versioned takes tags of any type too")
    func versionedTags() {
        struct Model {
            @Versioned var text = ""
        }
        let model = Model()
        model.text = "a"
        model.$text.tag(Checkpoint.saved)
        model.text = "ab"
        model.$text.undo(to: Checkpoint.saved)
        #expect(model.text == "a")
        #expect(model.$text.error == nil)
    }
}
