import Foundation
import Testing
@testable import Revertible

/// A page whose text is a `String`, one location.
struct TextConflictPage: Versionable, Codable, Sendable {
    var text: String

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.text)
    }
}

/// A page whose text is a ``TextBuffer``, one location.
struct TextConflictSheet: Versionable, Codable, Sendable {
    var text: TextBuffer

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.text)
    }
}

/// Issue 38, defects 1 and 2: undo of a text step after another writer changed the text.
/// The text (a `String` or a `TextBuffer`) is one location: another writer's change anywhere
/// in it is a conflict, whether it kept the length or not; `.overwrite` replaces exactly the
/// step's run, found where the other writer's edits moved it, and keeps their text around it.
@Suite("Other writers: text runs")
struct TextConflictTests {

    /// What undo did under one policy: the text after it, whether it refused, and how many
    /// conflicts it listed.
    struct Outcome: Equatable, CustomStringConvertible {
        var text: String
        var refused: Bool
        var conflicts: Int

        var description: String { "\(text.debugDescription) refused: \(refused) conflicts: \(conflicts)" }
    }

    /// Records `older` → `newer` as a step, absorbs `found` from another writer, and undoes
    /// under `policy`, in a `String` page or, with `buffer`, a `TextBuffer` one.
    static func undo(_ older: String, _ newer: String, found: String, _ policy: ConflictPolicy, buffer: Bool) -> Outcome {
        if buffer {
            let controller = ValueVersioningController(TextConflictSheet(text: TextBuffer(older)))
            controller.append(TextConflictSheet(text: TextBuffer(newer)))
            controller.absorb(TextConflictSheet(text: TextBuffer(found)))
            let refused = (try? controller.undo(onConflict: policy)) == nil
            return Outcome(text: String(controller.currentVersion.text), refused: refused, conflicts: controller.lastConflicts.count)
        }
        let controller = ValueVersioningController(TextConflictPage(text: older))
        controller.append(TextConflictPage(text: newer))
        controller.absorb(TextConflictPage(text: found))
        let refused = (try? controller.undo(onConflict: policy)) == nil
        return Outcome(text: controller.currentVersion.text, refused: refused, conflicts: controller.lastConflicts.count)
    }

    /// The outcome under `.refuse`, `.skip` and `.overwrite`, in that order.
    static func outcomes(_ older: String, _ newer: String, found: String, buffer: Bool) -> [Outcome] {
        [ConflictPolicy.refuse, .skip, .overwrite].map { undo(older, newer, found: found, $0, buffer: buffer) }
    }

    @Test("Defect 1: overwrite keeps another writer's text after the run", arguments: [false, true])
    func overwriteKeepsTextAfterTheRun(buffer: Bool) {
        #expect(Self.outcomes("hello world", "hello brave world", found: "hello brave world!", buffer: buffer) == [
            Outcome(text: "hello brave world!", refused: true, conflicts: 1),
            Outcome(text: "hello brave world!", refused: false, conflicts: 1),
            Outcome(text: "hello world!", refused: false, conflicts: 1),
        ])
    }

    @Test("Defect 1: overwrite keeps another writer's text before the run", arguments: [false, true])
    func overwriteKeepsTextBeforeTheRun(buffer: Bool) {
        #expect(Self.outcomes("hello world", "hello brave world", found: ">> hello brave world", buffer: buffer) == [
            Outcome(text: ">> hello brave world", refused: true, conflicts: 1),
            Outcome(text: ">> hello brave world", refused: false, conflicts: 1),
            Outcome(text: ">> hello world", refused: false, conflicts: 1),
        ])
    }

    @Test("Defect 2: a same-length edit elsewhere is a conflict", arguments: [false, true])
    func sameLengthEditElsewhereConflicts(buffer: Bool) {
        #expect(Self.outcomes("hello world", "hello World", found: "HELLO World", buffer: buffer) == [
            Outcome(text: "HELLO World", refused: true, conflicts: 1),
            Outcome(text: "HELLO World", refused: false, conflicts: 1),
            Outcome(text: "HELLO world", refused: false, conflicts: 1),
        ])
    }

    @Test("Defect 2: a length-changing edit elsewhere is the same conflict", arguments: [false, true])
    func lengthChangingEditElsewhereConflicts(buffer: Bool) {
        #expect(Self.outcomes("hello world", "hello World", found: "HELLO World!", buffer: buffer) == [
            Outcome(text: "HELLO World!", refused: true, conflicts: 1),
            Outcome(text: "HELLO World!", refused: false, conflicts: 1),
            Outcome(text: "HELLO world!", refused: false, conflicts: 1),
        ])
    }

    @Test("A same-length edit far from the run is a conflict too", arguments: [false, true])
    func distantSameLengthEditConflicts(buffer: Bool) {
        let tail = String(repeating: "lorem ipsum ", count: 10)
        #expect(Self.outcomes("a" + tail + "z", "b" + tail + "z", found: "b" + tail + "Z", buffer: buffer) == [
            Outcome(text: "b" + tail + "Z", refused: true, conflicts: 1),
            Outcome(text: "b" + tail + "Z", refused: false, conflicts: 1),
            Outcome(text: "a" + tail + "Z", refused: false, conflicts: 1),
        ])
    }

    @Test("Overwrite replaces the run another writer changed, keeping their text around it", arguments: [false, true])
    func overwriteReplacesAChangedRun(buffer: Bool) {
        #expect(Self.undo("hello world", "hello brave world", found: "> hello bravo world <", .overwrite, buffer: buffer)
            == Outcome(text: "> hello world <", refused: false, conflicts: 1))
    }

    @Test("Without another writer's change the run undoes and redoes with no conflict", arguments: [false, true])
    func noOtherWriter(buffer: Bool) {
        for policy in [ConflictPolicy.refuse, .skip, .overwrite] {
            #expect(Self.undo("hello world", "hello brave world", found: "hello brave world", policy, buffer: buffer)
                == Outcome(text: "hello world", refused: false, conflicts: 0))
        }
    }

    @Test("A step saved and reloaded still sees a same-length edit elsewhere", arguments: [false, true])
    func reloadedStepSeesSameLengthEdit(buffer: Bool) throws {
        if buffer {
            let controller = ValueVersioningController(TextConflictSheet(text: "hello world"))
            controller.append(TextConflictSheet(text: "hello World"))
            let archive = try JSONDecoder().decode(
                HistoryArchive<TextConflictSheet>.self, from: JSONEncoder().encode(controller.archive)
            )
            let loaded = ValueVersioningController(controller.currentVersion)
            try loaded.restoreHistory(from: archive)
            loaded.absorb(TextConflictSheet(text: "HELLO World"))
            #expect(throws: (any Error).self) { try loaded.undo(onConflict: .refuse) }
        } else {
            let controller = ValueVersioningController(TextConflictPage(text: "hello world"))
            controller.append(TextConflictPage(text: "hello World"))
            let archive = try JSONDecoder().decode(
                HistoryArchive<TextConflictPage>.self, from: JSONEncoder().encode(controller.archive)
            )
            let loaded = ValueVersioningController(controller.currentVersion)
            try loaded.restoreHistory(from: archive)
            loaded.absorb(TextConflictPage(text: "HELLO World"))
            #expect(throws: (any Error).self) { try loaded.undo(onConflict: .refuse) }
        }
    }

    /// A change read from an archive saved before the context and the fingerprint were kept
    /// (no `ca`, `cb`, `fp`) still undoes: a change of the length or of the run is a conflict,
    /// `.overwrite` finds the run only where it is whole at its old place from either end, and
    /// a same-length edit elsewhere goes unseen, as before (nothing was kept to see it).
    @Test("A text change saved before its context was kept still undoes among other writers")
    func savedBeforeTheContext() throws {
        let string = #"{"c":{"at":6,"k":"range","n":"brave ","nc":17,"o":"","oc":11,"p":"\\TextConflictPage.text"},"v":1}"#
        let page: Reversion<TextConflictPage> = try decoded(Data(string.utf8))
        var appended = TextConflictPage(text: "hello brave world!")
        #expect(page.revertSelectively(&appended, onConflict: .overwrite).count == 1)
        #expect(appended.text == "hello world!")
        var prefixed = TextConflictPage(text: ">> hello brave world")
        #expect(page.revertSelectively(&prefixed, onConflict: .overwrite).count == 1)
        #expect(prefixed.text == ">> hello world")
        var sameLength = TextConflictPage(text: "HELLO brave world")
        #expect(page.revertSelectively(&sameLength, onConflict: .refuse).isEmpty)
        #expect(sameLength.text == "HELLO world")

        let text = #"{"c":{"at":6,"k":"text","n":"brave ","nc":17,"o":""},"v":1}"#
        let buffer: Reversion<TextBuffer> = try decoded(Data(text.utf8))
        var found = TextBuffer(">> hello brave world")
        #expect(buffer.revertSelectively(&found, onConflict: .overwrite).count == 1)
        #expect(String(found) == ">> hello world")
        #expect(String(decoding: try encoded(buffer), as: UTF8.self) == text)
    }
}
