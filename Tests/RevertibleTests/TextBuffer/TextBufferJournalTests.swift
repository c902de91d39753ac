import Foundation
import Testing
@testable import Revertible

/// Issue 39: a text lent to a transaction, case by case. Its one edit is the step the
/// comparison makes, saved as the same bytes, wherever the edit could be placed in more than
/// one way; what the journal cannot vouch for is compared.
@Suite("TextBuffer: journaled edits")
struct TextBufferJournalTests {

    struct Stop: Error {}

    /// The saved history after `edit`, in a transaction journaled and in one compared, and how
    /// many steps the first journaled.
    private func archives(
        _ initial: String, _ edit: (inout TextDocument) -> Void
    ) throws -> (journaled: Data, compared: Data, journaledSteps: Int, text: String) {
        let document = TextDocument(title: "notes", body: TextBuffer(initial))
        let journaled = ValueVersioningController<TextDocument>(document, clock: TestClock())
        journaled.setWithTransaction(edit)
        let compared = ValueVersioningController<TextDocument>(document, clock: TestClock())
        compared.recordsWrites = false
        compared.setWithTransaction(edit)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Undone, the journaled step gives the text back.
        let text = String(journaled.currentVersion.body)
        _ = try journaled.undo()
        #expect(String(journaled.currentVersion.body) == initial)
        _ = try journaled.redo()
        return (try encoder.encode(journaled.archive), try encoder.encode(compared.archive), journaled.journaledStepCount, text)
    }

    @Test("An edit that could be placed in more than one way is saved where the comparison places it")
    func ambiguousPlacements() throws {
        let cases: [(String, Range<Int>, String)] = [
            ("baaab", 2..<2, "a"), ("baaab", 1..<2, ""), ("xyxyxy", 2..<2, "xy"), ("aéé", 1..<1, "é"),
            ("ab", 1..<2, "b"), ("", 0..<0, "a"), ("abcabc", 0..<3, "abcabc"), ("é👍é", 2..<6, "👍é👍"),
        ]
        for (initial, range, replacement) in cases {
            let found = try archives(initial) { $0.body.replaceUTF8Subrange(range, with: replacement) }
            #expect(found.journaledSteps == 1, "\(initial) \(range) \(replacement)")
            #expect(found.journaled == found.compared, "\(initial) \(range) \(replacement)")
        }
    }

    @Test("Two edits, a text assigned anew: compared, and saved the same")
    func comparedRuns() throws {
        let twice = try archives("hello world") {
            $0.body.insert("!", atUTF8Offset: 11)
            $0.body.insert(",", atUTF8Offset: 5)
        }
        #expect(twice.journaledSteps == 0 && twice.journaled == twice.compared && twice.text == "hello, world!")
        let anew = try archives("hello world") { $0.body = TextBuffer("bye") }
        #expect(anew.journaledSteps == 0 && anew.journaled == anew.compared && anew.text == "bye")
        // A copy edited and stored back is the lent text with one edit: journaled.
        let copied = try archives("hello world") {
            var copy = $0.body
            copy.insert("oh, ", atUTF8Offset: 0)
            $0.body = copy
        }
        #expect(copied.journaledSteps == 1 && copied.journaled == copied.compared && copied.text == "oh, hello world")
        // A copy edited and dropped leaves the text as it was lent: no step.
        let dropped = try archives("hello world") {
            var copy = $0.body
            copy.insert("oh, ", atUTF8Offset: 0)
            _ = copy
        }
        #expect(dropped.journaled == dropped.compared && dropped.text == "hello world")
    }

    @Test("A transaction that throws after its edit records nothing, and the text is lent again after")
    func thrownTransaction() throws {
        let controller = ValueVersioningController<TextDocument>(TextDocument(title: "t", body: TextBuffer("abc")), clock: TestClock())
        #expect(throws: Stop.self) {
            try controller.setWithTransaction { (document: inout TextDocument) throws(Stop) in
                document.body.insert("x", atUTF8Offset: 1)
                throw Stop()
            }
        }
        #expect(String(controller.currentVersion.body) == "abc" && controller.undoCount == 0)
        controller.setWithTransaction { $0.body.insert("y", atUTF8Offset: 3) }
        #expect(controller.journaledStepCount == 1 && String(controller.currentVersion.body) == "abcy")
        _ = try controller.undo()
        #expect(String(controller.currentVersion.body) == "abc")
    }

    /// A text registered through a function generic over its type reaches the generic
    /// `Revertible` overload, which must hand it to the `TextBuffer` one: still lent, journaled,
    /// and saved as the comparison saves it.
    struct GenericallyRegistered: Versionable, Codable, Sendable {
        var body: TextBuffer

        func addReversions(into reverter: inout some Reverter<GenericallyRegistered>) {
            Self.register(\.body, into: &reverter)
        }

        static func register<Value: Revertible>(
            _ keyPath: WritableKeyPath<GenericallyRegistered, Value>, into reverter: inout some Reverter<GenericallyRegistered>
        ) {
            reverter.appendReversion(at: keyPath)
        }
    }

    @Test("A text registered generically is journaled as one registered directly")
    func genericRegistration() throws {
        let document = GenericallyRegistered(body: TextBuffer("hello world"))
        let journaled = ValueVersioningController<GenericallyRegistered>(document, clock: TestClock())
        journaled.setWithTransaction { $0.body.insert(",", atUTF8Offset: 5) }
        let compared = ValueVersioningController<GenericallyRegistered>(document, clock: TestClock())
        compared.recordsWrites = false
        compared.setWithTransaction { $0.body.insert(",", atUTF8Offset: 5) }
        #expect(journaled.journaledStepCount == 1 && compared.journaledStepCount == 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(journaled.archive) == encoder.encode(compared.archive))
        _ = try journaled.undo()
        #expect(String(journaled.currentVersion.body) == "hello world")
    }
}
