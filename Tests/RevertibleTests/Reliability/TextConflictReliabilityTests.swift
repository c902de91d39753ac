import Foundation
import Testing
import TestSupport
@testable import Revertible

/// Issue 38's text rule, checked in random runs against a model that knows which bytes each
/// writer touched: the recorded writer makes one step (`append`), another writer then makes
/// up to two edits at random places (`absorb`), and the step is undone under each policy, in
/// a `String` and in a `TextBuffer`.
///
/// The rule: the text is one location. With no other change, every policy undoes the step
/// exactly, with no conflict. After any other change (in the step's run or elsewhere, of the
/// length or not) it is a conflict: `.refuse` throws and changes nothing, `.skip` changes
/// nothing, and `.overwrite` writes the step's older run and never alters what the other
/// writer wrote outside the run. Where the other writer stayed away from the run (more than
/// 16 bytes) and the run with 16 bytes around it occurs once, `.overwrite` must give exactly
/// the other writer's text with the run undone. Closer, bytes alone cannot always say where
/// the run is (a copy of its bytes next to it, a partly deleted run that the bytes before it
/// complete): it may leave the text as found, or replace a copy of the run's bytes, or, where
/// the other writer changed the run, text within the run and their edits touching it; every
/// other byte must stay.
///
/// Each scenario runs twice (issue 39): the step made in a transaction and `append`ed. In a
/// transaction, the buffer takes the one splice the scenario's writer made (which may lie
/// where the library would not place the run: a letter typed beside the same letter), and
/// the history journals it: every such step must be journaled, and must be held to the rule
/// and to the same present, conflicts and saved archive, byte for byte, as the comparison of
/// the appended versions. The `String` page has no journal: both of its runs compare.
@Suite("Reliability: other writers in text, against the byte model")
struct TextConflictReliabilityTests {

    /// Scalars of one, two and four bytes, so every cut must fall on a scalar boundary.
    static let pieces = "abcdefghijklmnopqrstuvwxyz".map(String.init) + [" ", "é", "👍"]

    /// A splice of a text, in bytes: the step's edit of its older text, or the other
    /// writer's of its newer text.
    struct Splice {
        var range: Range<Int>
        var inserted: [UInt8]
        var delta: Int { inserted.count - range.count }
    }

    /// One scenario: the step `older` → `newer` (`edit`, a splice of `older`) and the other
    /// writer's splices of `newer`.
    struct Scenario: CustomStringConvertible {
        var older: String
        var newer: String
        var edit: Splice
        var splices: [Splice]

        var found: String {
            var bytes = Array(newer.utf8)
            for splice in splices.reversed() {
                bytes.replaceSubrange(splice.range, with: splice.inserted)
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        var description: String {
            "\(older.debugDescription) → \(newer.debugDescription), other writer: \(found.debugDescription)"
        }
    }

    static func text(_ random: inout SeededGenerator, count: Int) -> [String] {
        (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
    }

    static func makeScenario(_ random: inout SeededGenerator) -> Scenario {
        let older = text(&random, count: Int.random(in: 0...40, using: &random))
        var newer = older
        var edit = Splice(range: 0..<0, inserted: [])
        let olderOffsets = older.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count) }
        while newer == older {
            let start = Int.random(in: 0...older.count, using: &random)
            let end = Int.random(in: start...min(older.count, start + 6), using: &random)
            let inserted = text(&random, count: Int.random(in: 0...6, using: &random))
            newer = older
            newer.replaceSubrange(start..<end, with: inserted)
            edit = Splice(range: olderOffsets[start]..<olderOffsets[end], inserted: Array(inserted.joined().utf8))
        }
        // The other writer's edits, in pieces of `newer`, then in bytes; none overlap or
        // touch, and none leaves its bytes as they were.
        var splices: [Splice] = []
        let offsets = newer.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count) }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let start = Int.random(in: 0...newer.count, using: &random)
            let end = Int.random(in: start...min(newer.count, start + 4), using: &random)
            let inserted = text(&random, count: Int.random(in: 0...4, using: &random)).joined()
            let splice = Splice(range: offsets[start]..<offsets[end], inserted: Array(inserted.utf8))
            let replaced = Array(newer.joined().utf8)[splice.range]
            guard Array(replaced) != splice.inserted,
                  !splices.contains(where: { $0.range.lowerBound <= splice.range.upperBound && splice.range.lowerBound <= $0.range.upperBound })
            else { continue }
            splices.append(splice)
        }
        splices.sort { $0.range.lowerBound < $1.range.lowerBound }
        return Scenario(older: older.joined(), newer: newer.joined(), edit: edit, splices: splices)
    }

    /// The step's run in `newer`, as the library records it, and the older run.
    static func run(of scenario: Scenario) -> (range: Range<Int>, older: [UInt8]) {
        let (old, new) = (Array(scenario.older.utf8), Array(scenario.newer.utf8))
        let (offset, oldLength, newLength) = old.withUnsafeBytes { old in
            new.withUnsafeBytes { new in changedRun(from: old, to: new, isBoundary: String.isBoundary) }
        }
        return (offset..<(offset + newLength), Array(old[offset..<(offset + oldLength)]))
    }

    /// What undo did: the text after it, whether it threw, and whether it listed conflicts;
    /// with what the controller showed after the step, after the other writer's edits and
    /// after the undo.
    struct Undone {
        var result: (text: String, refused: Bool, conflicts: Bool)
        var observations: [ControllerObservation]
        /// How many steps the history journaled.
        var journaled: Int
    }

    /// Records the step of `scenario` (in a transaction where `recordsWrites`, else appended),
    /// takes in the other writer's edits, and undoes the step under `policy`.
    static func undo(_ scenario: Scenario, _ policy: ConflictPolicy, buffer: Bool, recordsWrites: Bool) throws -> Undone {
        if buffer {
            let replacement = String(decoding: scenario.edit.inserted, as: UTF8.self)
            return try undo(
                from: TextConflictSheet(text: TextBuffer(scenario.older)), to: TextConflictSheet(text: TextBuffer(scenario.newer)),
                found: TextConflictSheet(text: TextBuffer(scenario.found)), policy, recordsWrites: recordsWrites,
                text: { String($0.text) }, edit: { $0.text.replaceUTF8Subrange(scenario.edit.range, with: replacement) }
            )
        }
        return try undo(
            from: TextConflictPage(text: scenario.older), to: TextConflictPage(text: scenario.newer),
            found: TextConflictPage(text: scenario.found), policy, recordsWrites: recordsWrites,
            text: \.text, edit: { $0.text = scenario.newer }
        )
    }

    /// The step `older` → `newer` (`edit` made in a transaction where `recordsWrites`, else
    /// `newer` appended), `found` absorbed, and the step undone under `policy`.
    static func undo<Page: Versionable & Codable>(
        from older: Page, to newer: Page, found: Page, _ policy: ConflictPolicy, recordsWrites: Bool,
        text: (Page) -> String, edit: (inout Page) -> Void
    ) throws -> Undone {
        // A clock that never moves: the two runs' archives keep the same times.
        let controller = ValueVersioningController(older, clock: TestClock())
        if recordsWrites {
            controller.setWithTransaction(edit)
        } else {
            controller.append(newer)
        }
        let journaled = controller.journaledStepCount
        var observations = [try ControllerObservation(controller)]
        controller.absorb(found)
        observations.append(try ControllerObservation(controller))
        let refused = (try? controller.undo(onConflict: policy)) == nil
        observations.append(try ControllerObservation(controller, archive: true))
        return Undone(
            result: (text(controller.currentVersion), refused, !controller.lastConflicts.isEmpty), observations: observations,
            journaled: journaled
        )
    }

    /// Why `result` breaks the rule for `scenario` under `policy`, or `nil`.
    static func violation(
        _ scenario: Scenario, _ policy: ConflictPolicy, _ result: (text: String, refused: Bool, conflicts: Bool)
    ) -> String? {
        let found = Array(scenario.found.utf8)
        let text = Array(result.text.utf8)
        guard !scenario.splices.isEmpty else {
            return result == (scenario.older, false, false) ? nil : "without another writer's change, undo must be exact"
        }
        switch policy {
        case .refuse:
            return result == (scenario.found, true, true) ? nil : "refuse must throw, list the conflict and change nothing"
        case .skip:
            return result == (scenario.found, false, true) ? nil : "skip must list the conflict and change nothing"
        case .overwrite:
            guard !result.refused, result.conflicts else { return "overwrite must list the conflict and not throw" }
        }
        let (run, older) = run(of: scenario)
        let touching = scenario.splices.filter { $0.range.lowerBound <= run.upperBound && $0.range.upperBound >= run.lowerBound }
        let shift = scenario.splices.filter { $0.range.upperBound < run.lowerBound }.reduce(0) { $0 + $1.delta }
        // The part of `found` the step's run and the other writer's edits touching it cover:
        // everything outside it is text the step never wrote, and must survive.
        let low = min(run.lowerBound, touching.map(\.range.lowerBound).min() ?? run.lowerBound) + shift
        let high = max(run.upperBound, touching.map(\.range.upperBound).max() ?? run.upperBound) + shift
            + touching.reduce(0) { $0 + $1.delta }
        if text == found { return touching.isEmpty && mustLocate(scenario, run) ? "overwrite must find the run" : nil }
        if touching.isEmpty, mustLocate(scenario, run) {
            let ideal = Array(found[..<low]) + older + Array(found[high...])
            return text == ideal ? nil : "overwrite must replace exactly the run"
        }
        // Nearer the run, or where the run's bytes occur more than once, bytes alone cannot
        // always say which copy is the step's: overwrite may replace any copy of the run, or,
        // where the other writer changed the run, what lies within the run and their edits
        // touching it, and must keep every other byte.
        let replaced = (0...found.count).flatMap { start -> [Range<Int>] in
            let end = found.count - (text.count - start - older.count)
            guard end >= start, end <= found.count, start + older.count <= text.count,
                  text[..<start].elementsEqual(found[..<start]),
                  text[start..<(start + older.count)].elementsEqual(older),
                  text[(start + older.count)...].elementsEqual(found[end...]) else { return [] }
            return [start..<end]
        }
        let newer = Array(scenario.newer.utf8)[run]
        let allowed = replaced.contains { range in
            found[range].elementsEqual(newer) || (!touching.isEmpty && range.lowerBound >= low && range.upperBound <= high)
        }
        return allowed ? nil : "overwrite altered the other writer's text outside the run"
    }

    /// Whether the other writer stayed more than 16 bytes away from the run and the run with
    /// 16 bytes around it occurs once in the text found: then the run is unmistakable.
    static func mustLocate(_ scenario: Scenario, _ run: Range<Int>) -> Bool {
        let margin = 16
        guard scenario.splices.allSatisfy({ $0.range.upperBound + margin < run.lowerBound || $0.range.lowerBound > run.upperBound + margin })
        else { return false }
        let newer = Array(scenario.newer.utf8)
        let window = Array(newer[max(0, run.lowerBound - margin)..<min(newer.count, run.upperBound + margin)])
        return occurrences(of: window, in: Array(scenario.found.utf8)) == 1
    }

    static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
        guard pattern.count <= bytes.count else { return 0 }
        return (0...(bytes.count - pattern.count)).count { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }

    @Test("Random edits by two writers, in a String and a TextBuffer, under every policy, in a transaction or appended")
    func randomEditsByTwoWriters() throws {
        for seed in RandomizedTesting.seeds(defaultIterations: 400) {
            var random = SeededGenerator(seed: seed)
            let scenario = Self.makeScenario(&random)
            let replay = RandomizedTesting.replayCommand(seed: seed, filter: "TextConflictReliabilityTests")
            for buffer in [false, true] {
                for policy in [ConflictPolicy.refuse, .skip, .overwrite] {
                    let context = "seed \(seed), \(buffer ? "TextBuffer" : "String"), \(policy), \(scenario) (\(replay))"
                    try expectSameInBothRecordingModes(context) { recordsWrites in
                        let undone = try Self.undo(scenario, policy, buffer: buffer, recordsWrites: recordsWrites)
                        // The buffer's one splice is journaled; nothing else is.
                        let journaled = buffer && recordsWrites ? 1 : 0
                        #expect(undone.journaled == journaled, "\(context): \(undone.journaled) steps journaled, not \(journaled)")
                        if let violation = Self.violation(scenario, policy, undone.result) {
                            Issue.record("""
                                seed \(seed), \(buffer ? "TextBuffer" : "String"), \(policy), \
                                \(recordsWrites ? "in a transaction" : "appended"): \(violation)
                                \(scenario); undo gave \(undone.result.text.debugDescription) \
                                (refused: \(undone.result.refused), conflicts: \(undone.result.conflicts))
                                replay: \(replay)
                                """)
                        }
                        return undone.observations
                    }
                }
            }
        }
    }
}
