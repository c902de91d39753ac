import Testing
import TestSupport
@testable import Revertible

/// A step reads its run's boundaries, its runs and their context from the chunk of the edit
/// in each version, and from walks down the tree where they leave it: edits at every offset
/// around chunk boundaries, through multi-byte scalars, give the same step as reading the
/// whole text.
@Suite("TextBuffer: a step read from the chunk of its edit")
struct TextBufferStepChunkTests {

    @Test("Runs, context and fingerprint of edits around chunk boundaries are those of the text")
    func editsAroundChunkBoundaries() throws {
        var factory = TextFactory(seed: 83)
        let text = factory.text(20_000)
        let previous = TextBuffer(text)
        let bytes = Array(text.utf8)
        // Chunks built from a string hold about 3 KB each: every offset within 20 bytes of a
        // multiple of 1 KB covers each chunk's ends.
        for center in stride(from: 1_024, to: bytes.count - 1_024, by: 1_024) {
            for offset in (center - 20)...(center + 20) where bytes[offset] & 0xC0 != 0x80 {
                var upper = Swift.min(bytes.count, offset + Int.random(in: 0...6, using: &factory.random))
                while upper < bytes.count, bytes[upper] & 0xC0 == 0x80 { upper += 1 }
                let piece = offset.isMultiple(of: 3) ? "" : factory.piece()
                var current = previous
                current.replaceUTF8Subrange(offset..<upper, with: piece)
                let edited = Array(replacingUTF8(text, offset..<upper, with: piece).utf8)
                guard let change = current.reversion(to: previous)?.node as? TextBufferChange else {
                    #expect(edited == bytes, "offset \(offset): no step for a changed text")
                    continue
                }
                // The run by its definition: the bytes between the common prefix and suffix.
                let start = change.offset
                let oldEnd = change.oldCount - (edited.count - (start + Array(change.newPart.utf8).count))
                #expect(Array(change.oldPart.utf8) == Array(bytes[start..<oldEnd]), "offset \(offset)")
                #expect(Array(change.newPart.utf8) == Array(edited[start..<(start + change.newPart.utf8.count)]), "offset \(offset)")
                let newEnd = start + change.newPart.utf8.count
                let around = contextRanges(offset: start, length: newEnd - start, count: edited.count) {
                    $0 == edited.count || edited[$0] & 0xC0 != 0x80
                }
                let context = try #require(change.context)
                #expect(Array(context.before.utf8) == Array(edited[around.before]), "offset \(offset)")
                #expect(Array(context.after.utf8) == Array(edited[around.after]), "offset \(offset)")
                let outside = Array(edited[..<start] + edited[newEnd...])
                #expect(context.fingerprint == outside.withUnsafeBytes { TextBuffer._fingerprintByDefinition(of: $0) }, "offset \(offset)")
                var reverted = current
                try #require(change.canApply(to: reverted, .backward))
                _ = change.apply(to: &reverted, .backward)
                #expect(holds(reverted, text), "offset \(offset)")
            }
        }
    }
}
