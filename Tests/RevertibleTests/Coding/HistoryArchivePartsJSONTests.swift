import Foundation
import Testing
import TestSupport
@testable import Revertible

/// Issue 37: `HistoryArchive.Step(json:)` and `HistoryArchive.Outline(json:)`, the pieces a
/// store saves one at a time, read as `JSONDecoder` reads them: the same values, and the same
/// errors for damaged ones (the same kind, at the same coding path, with the same message
/// where the library wrote it; see `readBothWays`).
@Suite struct HistoryArchivePartsJSONTests {

    /// Compared by checksum, which counts a set's members in any order.
    private func same<T: Encodable>(_ a: T, _ b: T) throws -> Bool {
        try HistoryArchiveChecksum.of(a) == HistoryArchiveChecksum.of(b)
    }

    private func readStep(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> HistoryArchive<Board>.Step {
        try readBothWays(
            HistoryArchive<Board>.Step.self, from: data, sourceLocation: sourceLocation,
            reading: { try HistoryArchive<Board>.Step(json: $0) }, same: same
        )
    }

    private func readOutline(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> HistoryArchive<Board>.Outline {
        try readBothWays(
            HistoryArchive<Board>.Outline.self, from: data, sourceLocation: sourceLocation,
            reading: { try HistoryArchive<Board>.Outline(json: $0) }, same: same
        )
    }

    @Test("Each step and the outline of random histories read as JSONDecoder reads them, intact and damaged")
    func randomPieces() throws {
        var read = 0
        var refused = 0
        for seed in RandomizedTesting.seeds(defaultIterations: 12) {
            var random = SeededGenerator(seed: seed &+ 1_000)
            var history = SeededGenerator(seed: seed)
            let archive = randomBoardHistory(seed: seed, random: &history).archive
            var pieces: [(data: Data, isStep: Bool)] = [(try JSONEncoder().encode(archive.outline), false)]
            for step in archive.steps {
                pieces.append((try JSONEncoder().encode(step), true))
            }
            for (data, isStep) in pieces {
                // Intact: both read it, alike, and the step keeps its saved checksum.
                if isStep {
                    let step = try readStep(data)
                    #expect(step.matchesSavedChecksum, "seed \(seed)")
                } else {
                    _ = try readOutline(data)
                }
                for _ in 0..<10 {
                    let damaged = Data(damageJSON(Array(data), random: &random))
                    // Not JSON to the library's parser, which checks every string as it parses
                    // (`JSONDecoder` only those it decodes) and so may refuse more, only as not
                    // JSON: the readers of the pieces never see it.
                    if (try? JSONDocument(Array(damaged))) == nil { continue }
                    let outcome = isStep ? Result { _ = try readStep(damaged) } : Result { _ = try readOutline(damaged) }
                    if case .success = outcome { read += 1 } else { refused += 1 }
                }
            }
        }
        // Not vacuous: damage was both refused and (in content) read.
        #expect(refused > 0)
        #expect(read > 0)
    }

    @Test("A step's own fields, damaged, are refused with the library's messages")
    func damagedStepFields() throws {
        var history = SeededGenerator(seed: 7)
        let archive = randomBoardHistory(seed: 7, random: &history).archive
        let step = try #require(archive.steps.first)
        let text = String(decoding: try JSONEncoder().encode(step), as: UTF8.self)
        let cases: [(String, String)] = [
            (#""v":"#, #""v":"x","#),
            (#""parent":"#, #""parent":-1,"#),
            (#""time":"#, #""time":1.5,"#),
            (#""scope":"#, #""scope":null,"#),
            (#""label":"#, #""label":3,"#),
            (#""change":"#, #""change":[],"#),
            (#""change":"#, #""change":{"v":2,"c":null},"#),
            (#""sum":"#, #""sum":"zz","#),
            (#""v":"#, #""redoes":3,"#),
            (#""v":"#, #""author":"ana","undoes":3,"redoes":4,"#),
        ]
        for (at, inserted) in cases {
            // Inserted before the key's first occurrence: an object's first value for a key is
            // the one read, by both readers.
            guard let range = text.range(of: at) else { continue }
            let damaged = text.replacingCharacters(in: range.lowerBound..<range.lowerBound, with: inserted)
            _ = try? readStep(Data(damaged.utf8))
        }
        #expect(throws: DecodingError.self) { try HistoryArchive<Board>.Step(json: Data("[]".utf8)) }
        #expect(throws: DecodingError.self) { try HistoryArchive<Board>.Outline(json: Data("{".utf8)) }
    }
}
