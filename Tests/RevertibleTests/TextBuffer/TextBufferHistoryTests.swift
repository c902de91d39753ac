import Foundation
import Testing
import TestSupport
@testable import Revertible

/// A document holding its text in a `TextBuffer`, as an editor would.
struct TextDocument: Versionable, Codable, Sendable {
    var title: String
    var body: TextBuffer

    func addReversions(into reverter: inout some Reverter<TextDocument>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.body)
    }
}

/// Model-based: random edits (inserts, removes, replaces of scalars, combining characters
/// and emoji at random scalar boundaries), undos, redos and reloads of the saved history,
/// on a controller tracking a `TextBuffer`, checked after every operation against `String`
/// versions kept whole.
///
/// Each seed runs twice (issue 39): its edits made in transactions, whose text the history
/// lends to the transaction so that its edit is journaled (one edit per step; a step of
/// several is compared), and made then `append`ed, which compares. Both runs must match the
/// model and see the same present, undo and redo and the same saved archive, byte for byte;
/// every transaction of one edit must have been journaled and no other, and a real share of
/// the transactions must have been.
@Suite("TextBuffer: history, model-based")
struct TextBufferHistoryTests {

    @Test("Random edits, undos, redos and reloads match String versions, in transactions or appended",
          arguments: RandomizedTesting.seeds(defaultIterations: 30))
    func modelBased(seed: UInt64) throws {
        var (journaled, transactions) = (0, 0)
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "TextBufferHistoryTests")
        try expectSameInBothRecordingModes("seed \(seed) (\(replay))") { recordsWrites in
            try run(seed: seed, recordsWrites: recordsWrites, journaled: &journaled, transactions: &transactions)
        }
        if RandomizedTesting.isVerbose { print("TextBufferHistoryTests: seed \(seed), \(journaled) of \(transactions) transactions journaled") }
        // A step of one edit is a third of them: far fewer is a journal that stopped taking them.
        #expect(transactions < 10 || journaled * 8 > transactions, "seed \(seed): \(journaled) of \(transactions) transactions journaled; \(replay)")
    }

    /// One run of `seed`, its edits made in transactions (`recordsWrites`) or appended; returns
    /// what it saw after each operation, and adds its journaled steps and its transactions.
    private func run(seed: UInt64, recordsWrites: Bool, journaled: inout Int, transactions: inout Int) throws -> [ControllerObservation] {
        let mode = recordsWrites ? "in transactions" : "appended"
        var factory = TextFactory(seed: seed)
        let size = [0, 100, 20_000, 60_000][Int.random(in: 0..<4, using: &factory.random)]
        let initial = factory.text(size)
        var document = TextDocument(title: "notes", body: TextBuffer(initial))
        // A clock that never moves: the two runs' archives keep the same times.
        var controller = ValueVersioningController<TextDocument>(document, clock: TestClock())
        var observations: [ControllerObservation] = []
        var versions = [initial]
        var position = 0
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "TextBufferHistoryTests")
        for step in 0..<RandomizedTesting.operationsPerSequence / 2 {
            let roll = Int.random(in: 0..<100, using: &factory.random)
            var saved = false
            switch roll {
            case 0..<20 where position > 0:
                try controller.undo(&document)
                position -= 1
            case 20..<30 where position < versions.count - 1:
                try controller.redo(&document)
                position += 1
            case 30..<34:
                // Save the history and the document, and load both into a new controller.
                observations.append(try ControllerObservation(controller, archive: true))
                saved = true
                let savedHistory = try JSONEncoder().encode(controller.archive)
                let savedDocument = try JSONEncoder().encode(document)
                document = try JSONDecoder().decode(TextDocument.self, from: savedDocument)
                controller = ValueVersioningController<TextDocument>(document, clock: TestClock())
                try controller.restoreHistory(from: JSONDecoder().decode(HistoryArchive<TextDocument>.self, from: savedHistory))
                // The loaded history keeps the steps on the current branch; redo keeps its own.
                guard controller.undoCount == position else {
                    Issue.record("seed \(seed), step \(step), \(mode): \(controller.undoCount) undos after reloading, not \(position); \(replay)")
                    return observations
                }
                versions.removeSubrange((position + 1 + controller.redoCount)...)
            default:
                var text = versions[position]
                // The edits that write the text (an empty range replaced with nothing does not).
                var writes = 0
                func edit(_ document: inout TextDocument) {
                    for _ in 0..<Int.random(in: 1...3, using: &factory.random) {
                        let (range, replacement) = factory.edit(of: text)
                        if !range.isEmpty || !replacement.isEmpty { writes += 1 }
                        document.body.replaceUTF8Subrange(range, with: replacement)
                        text = replacingUTF8(text, range, with: replacement)
                    }
                }
                if recordsWrites {
                    let before = controller.journaledStepCount
                    document = controller.setWithTransaction(edit)
                    // The journal vouches for one write; a second makes the step compared.
                    let steps = controller.journaledStepCount - before
                    guard steps == (writes <= 1 ? 1 : 0) else {
                        Issue.record("seed \(seed), step \(step), \(mode): \(steps) steps journaled for \(writes) writes; \(replay)")
                        return observations
                    }
                    journaled += steps
                    transactions += 1
                } else {
                    edit(&document)
                    controller.append(document)
                }
                if !text.utf8.elementsEqual(versions[position].utf8) {
                    versions.removeSubrange((position + 1)...)
                    versions.append(text)
                    position += 1
                }
            }
            document.body._invariantCheck()
            guard holds(document.body, versions[position]),
                  controller.undoCount == position,
                  controller.redoCount == versions.count - 1 - position else {
                Issue.record("seed \(seed), step \(step) (roll \(roll)), \(mode): the controller disagrees with the model; \(replay)")
                return observations
            }
            if !saved { observations.append(try ControllerObservation(controller)) }
        }
        observations.append(try ControllerObservation(controller, archive: true))
        while controller.undoCount > 0 { try controller.undo(&document) }
        #expect(holds(document.body, versions[0]), "seed \(seed), \(mode)")
        while controller.redoCount > 0 { try controller.redo(&document) }
        #expect(holds(document.body, versions[versions.count - 1]), "seed \(seed), \(mode)")
        observations.append(try ControllerObservation(controller, archive: true))
        document.body._invariantCheck()
        return observations
    }
}

@Suite("TextBuffer: reversions")
struct TextBufferReversionTests {

    @Test("reversion(to:) then revert gives exactly the previous text; nil exactly when equal",
          arguments: RandomizedTesting.seeds(defaultIterations: 100))
    func reversionProperty(seed: UInt64) throws {
        var factory = TextFactory(seed: seed)
        let text = factory.text([0, 50, 10_000, 100_000][Int(seed % 4)])
        let previous = TextBuffer(text)
        // Made from `previous` by edits (shared chunks), or built apart (no sharing).
        var current = previous
        var expected = text
        for _ in 0..<Int.random(in: 0...3, using: &factory.random) {
            let (range, replacement) = factory.edit(of: expected)
            current.replaceUTF8Subrange(range, with: replacement)
            expected = replacingUTF8(expected, range, with: replacement)
        }
        if factory.random.chance(0.3) { current = TextBuffer(expected) }
        let reversion = current.reversion(to: previous)
        #expect((reversion == nil) == expected.utf8.elementsEqual(text.utf8), "seed \(seed)")
        #expect((reversion == nil) == (current == previous), "seed \(seed)")
        guard let reversion else { return }
        var reverted = current
        try reversion.revert(&reverted)
        #expect(holds(reverted, text), "seed \(seed)")
        reverted._invariantCheck()
        // Both ways from one comparison: redo gives the current text back.
        try reversion.inverted.revert(&reverted)
        #expect(holds(reverted, expected), "seed \(seed)")
    }

    @Test("Equal texts in different trees make no step: an edit undone by hand leaves nothing to record")
    func equalTextsMakeNoStep() {
        var factory = TextFactory(seed: 9)
        let a = TextBuffer(factory.text(100_000))
        var b = a
        b.insert("x", atUTF8Offset: 50_000)
        b.removeUTF8Subrange(50_000..<50_001)
        #expect(a.reversion(to: b) == nil)
        #expect(b.reversion(to: a) == nil)
    }

    @Test("A reversion refuses a text it was not made from, and leaves it untouched")
    func wrongVersion() {
        let previous = TextBuffer("Hello world")
        var current = previous
        current.insert(",", atUTF8Offset: 5)
        let reversion = current.reversion(to: previous)!
        var other = TextBuffer("Hello there")
        #expect(throws: ReversionError.self) { try reversion.revert(&other) }
        #expect(String(other) == "Hello there")
        var longer = TextBuffer("Hello, world!")
        #expect(throws: ReversionError.self) { try reversion.revert(&longer) }
        #expect(String(longer) == "Hello, world!")
    }

    @Test("A typed character is stored as itself: the step keeps the run, not the document")
    func smallSteps() throws {
        let previous = TextBuffer(String(repeating: "abcdefgh", count: 100_000))
        var current = previous
        current.insert("é", atUTF8Offset: 400_001)
        let reversion = try #require(current.reversion(to: previous))
        let change = try #require(reversion.node as? TextBufferChange)
        #expect(change.offset == 400_001 && change.oldPart == "" && change.newPart == "é")
    }

    @Test("A typed character's change keeps its runs and context in one small heap block")
    func typedCharacterBlock() throws {
        let previous = TextBuffer(String(repeating: "abcdefgh", count: 2_000_000))
        var current = previous
        current.insert("é", atUTF8Offset: 9_000_001)
        let change = try #require(current.reversion(to: previous)?.node as? TextBufferChange)
        #expect(change.offset == 9_000_001 && change.oldPart == "" && change.newPart == "é")
        #expect(change.newCount == 16_000_002 && change.oldCount == 16_000_000)
        let context = try #require(change.context)
        #expect(context.before == "fghabcdefgha" && context.after == "bcdefghabcde")
        #expect(context.fingerprint == current.fingerprint(outside: 9_000_001..<9_000_003))
        // Header, fields and bytes: 16 + 24 + 4 lengths + the run and its context (26 bytes), within the 72
        // bytes glibc serves from an 80-byte block (four `String`s took a 112-byte one).
        #expect(MemoryLayout<TextBufferChangeHeader>.size == 24)
        #expect(change.capacity >= 30)
        #if os(Linux)
        // The capacity is what the block holds after the header (glibc's usable size).
        #expect(change.capacity <= 32)
        #endif
    }

    @Test("Runs and contexts longer than a byte's worth of length, and a change without context, round-trip")
    func longRunsAndNoContext() throws {
        let old = String(repeating: "ä", count: 300)
        let new = String(repeating: "x", count: 20_000) + "🙂"
        let change = TextBufferChange.make(
            offset: 3, oldPart: old, newPart: new, newCount: 3 + new.utf8.count + 200,
            context: TextRunContext(before: "abc", after: String(repeating: "z", count: 200), fingerprint: 0x0123_4567_89ab_cdef)
        )
        #expect(change.oldPart == old && change.newPart == new && change.offset == 3)
        #expect(change.oldCount == 3 + old.utf8.count + 200)
        let context = try #require(change.context)
        #expect(context.before == "abc" && context.after == String(repeating: "z", count: 200))
        #expect(context.fingerprint == 0x0123_4567_89ab_cdef)

        let bare = TextBufferChange.make(offset: 1, oldPart: "b", newPart: new, newCount: 2 + new.utf8.count, context: nil)
        #expect(bare.context == nil && bare.oldPart == "b" && bare.newPart == new)
        var text = TextBuffer("a" + new + "c")
        #expect(bare.canApply(to: text, .backward))
        #expect(!bare.canApply(to: text, .forward))
        #expect(bare.apply(to: &text, .backward))
        #expect(String(text) == "abc")
        #expect(bare.canApply(to: text, .forward))
        #expect(bare.apply(to: &text, .forward))
        #expect(String(text) == "a" + new + "c")
    }

    @Test("Versions built apart, cut into chunks at other offsets, still give the smallest run")
    func smallStepsBetweenUnsharedTrees() throws {
        let text = String(repeating: "abcdefgh", count: 100_000)
        var edited = text
        edited.insert("x", at: edited.utf8.index(edited.startIndex, offsetBy: 400_001))
        let reversion = try #require(TextBuffer(edited).reversion(to: TextBuffer(text)))
        let change = try #require(reversion.node as? TextBufferChange)
        #expect(change.offset == 400_001 && change.oldPart == "" && change.newPart == "x")
    }

    @Test("A saved reversion that does not fit its text is refused when read")
    func hostileDecoding() throws {
        let json = #"{"k":"text","at":5,"o":"","n":"abcdef","nc":3}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DecodedNode<TextBuffer>.self, from: Data(json.utf8))
        }
        let misplaced = #"{"k":"text","at":0,"o":"","n":"a","nc":1}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DecodedNode<String>.self, from: Data(misplaced.utf8))
        }
    }
}
