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

    /// A history of random edits, undos, tags and scopes, some left open, sometimes limited.
    private func randomHistory(seed: UInt64) -> VersioningController<Board, Board, HistoryError> {
        var random = SeededGenerator(seed: seed)
        var factory = BoardFactory(seed: seed)
        var board = factory.board()
        let limit: Int? = Bool.random(using: &random) ? nil : Int.random(in: 2...6, using: &random)
        let controller = VersioningController(board, historyLimit: limit)
        for index in 0..<Int.random(in: 4...20, using: &random) {
            switch Int.random(in: 0..<8, using: &random) {
            case 0: board = (try? controller.undo()) ?? board
            case 1: controller.tag("t\(index)")
            case 2 where controller.scopeLevel < 3: controller.pushNewScope()
            case 3 where controller.scopeLevel > 0:
                try? controller.popCurrentScope()
                board = controller.currentVersion
            default:
                board = factory.edit(board)
                controller.append(board)
            }
        }
        return controller
    }

    /// One to three bytes changed, inserted or removed.
    private func damage(_ bytes: [UInt8], random: inout SeededGenerator) -> [UInt8] {
        var damaged = bytes
        let alphabet = Array(#"0123456789abcdefnrtuvxyz"{}[]:,.-\ "#.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !damaged.isEmpty {
            let at = Int.random(in: 0..<damaged.count, using: &random)
            let byte = Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: damaged[at] = byte
            case 1: damaged.insert(byte, at: at)
            default: damaged.remove(at: at)
            }
        }
        return damaged
    }

    @Test("Each step and the outline of random histories read as JSONDecoder reads them, intact and damaged")
    func randomPieces() throws {
        var read = 0
        var refused = 0
        for seed in RandomizedTesting.seeds(defaultIterations: 12) {
            var random = SeededGenerator(seed: seed &+ 1_000)
            let archive = randomHistory(seed: seed).archive
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
                    let damaged = Data(damage(Array(data), random: &random))
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
        let archive = randomHistory(seed: 7).archive
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
