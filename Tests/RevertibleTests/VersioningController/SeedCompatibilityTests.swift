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

    /// Issue 38, defect 5: the original library's "Tags" test, in its order and with its own
    /// local tag type. Its `undo(&value, to: Tag.initial)` reaches the initial version; what
    /// threw "No version is tagged “0”" is its next lines, `redo(&value, to: 0)` and
    /// `undo(&value, to: 1)`, which move to tags no version has: the original did nothing
    /// there, silently, where this package refuses, changing nothing (see "Differences from
    /// the seed API").
    @Test("The original library's Tags test: cases of a local enum as tags")
    @available(*, deprecated)
    func originalTagsTest() throws {
        enum Tag {
            case initial, modified, final
        }
        struct Draft: Versionable, Equatable {
            var int = 0
            var string = "abcd"

            func addReversions(into reverter: inout some Reverter<Draft>) {
                reverter.appendReversion(at: \.int)
                reverter.appendReversion(at: \.string)
            }
        }
        var value = Draft()
        let controller = VersioningController(value)
        controller.tagCurrentVersion(Tag.initial)
        for (int, string) in [(3, "123"), (5, "12345"), (9, "123456789"), (10, "1234567890")] {
            value = Draft(int: int, string: string)
            if int == 5 { controller.append(value, tag: Tag.modified) } else { controller.append(value) }
        }
        controller.tagCurrentVersion(Tag.final)

        try controller.undo(&value)
        #expect(value == Draft(int: 9, string: "123456789"))
        value = try controller.undo(to: Tag.modified)
        #expect(value == Draft(int: 5, string: "12345"))
        try controller.undo(&value, to: Tag.initial)
        #expect(value == Draft() && !controller.hasUndo && controller.hasRedo)
        value = try controller.redo(to: Tag.modified)
        #expect(value == Draft(int: 5, string: "12345"))

        #expect(throws: HistoryError.unknownTag(0)) { try controller.redo(&value, to: 0) }
        #expect(throws: HistoryError.unknownTag(1)) { try controller.undo(&value, to: 1) }
        #expect(value == Draft(int: 5, string: "12345") && controller.hasUndo && controller.hasRedo)

        controller.pushNewScope()
        value = Draft(int: 9, string: "123456789")
        controller.append(value)
        value = Draft(int: 10, string: "1234567890")
        controller.append(value)
        controller.tagCurrentVersion(Tag.final)
        // The scope starts on the version tagged `modified`, which undo reaches inside it.
        value = try controller.undo(to: Tag.modified)
        #expect(value == Draft(int: 5, string: "12345") && !controller.hasUndo)
        value = try controller.redo(to: Tag.final)
        #expect(value.int == 10 && !controller.hasRedo)
        try controller.popCurrentScope()
        #expect(controller.hasUndo && !controller.hasRedo)
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
