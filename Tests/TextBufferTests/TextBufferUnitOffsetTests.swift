import Testing
import TestSupport
@testable import TextBuffer

/// The buffer's conversions between UTF-8, scalar and UTF-16 offsets, each checked against
/// `String`'s own views of the same text.
@Suite("TextBuffer: scalar and UTF-16 offsets, model-based")
struct TextBufferUnitOffsetTests {

    /// Checks every conversion of `buffer` at `utf8Offsets` (scalar boundaries of `text`) and
    /// at random scalar and UTF-16 offsets, against `text`'s views.
    static func checkConversions(_ buffer: TextBuffer, _ text: String, utf8Offsets: [Int],
                                 random: inout SeededGenerator, comment: String) {
        #expect(buffer.unicodeScalarCount == text.unicodeScalars.count, "\(comment)")
        #expect(buffer.unicodeScalars.count == text.unicodeScalars.count, "\(comment)")
        #expect(buffer.utf16Count == text.utf16.count, "\(comment)")
        for offset in utf8Offsets {
            let stringIndex = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
            let scalars = text.unicodeScalars.distance(from: text.startIndex, to: stringIndex)
            let utf16 = text.utf16.distance(from: text.startIndex, to: stringIndex)
            let index = buffer.index(atUTF8Offset: offset)
            #expect(buffer.unicodeScalarOffset(of: index) == scalars, "\(comment), UTF-8 offset \(offset)")
            #expect(buffer.utf16Offset(of: index) == utf16, "\(comment), UTF-8 offset \(offset)")
            #expect(buffer.index(atUnicodeScalarOffset: scalars) == index, "\(comment), scalar offset \(scalars)")
            #expect(buffer.index(atUTF16Offset: utf16) == index, "\(comment), UTF-16 offset \(utf16)")
        }
        for _ in 0..<8 {
            let scalars = Int.random(in: 0...text.unicodeScalars.count, using: &random)
            let stringIndex = text.unicodeScalars.index(text.startIndex, offsetBy: scalars)
            let expected = text.utf8.distance(from: text.startIndex, to: stringIndex)
            #expect(buffer.index(atUnicodeScalarOffset: scalars).utf8Offset == expected, "\(comment), scalar offset \(scalars)")

            let utf16 = Int.random(in: 0...text.utf16.count, using: &random)
            let utf16Index = text.utf16.index(text.startIndex, offsetBy: utf16)
            if let scalarIndex = utf16Index.samePosition(in: text.unicodeScalars) {
                let expected = text.utf8.distance(from: text.startIndex, to: scalarIndex)
                #expect(buffer.index(validatingUTF16Offset: utf16)?.utf8Offset == expected, "\(comment), UTF-16 offset \(utf16)")
                #expect(buffer.index(atUTF16Offset: utf16).utf8Offset == expected, "\(comment), UTF-16 offset \(utf16)")
            } else {
                #expect(buffer.index(validatingUTF16Offset: utf16) == nil, "\(comment), UTF-16 offset \(utf16) inside a pair")
            }

            // A jump by scalars from a random scalar, forward or back, long or short (walked),
            // lands where String's does.
            let from = Int.random(in: 0...text.unicodeScalars.count, using: &random)
            var distance = Int.random(in: -from...(text.unicodeScalars.count - from), using: &random)
            if Bool.random(using: &random) {
                distance = Swift.min(Swift.max(distance % (TextBuffer.scalarWalkLimit + 2), -from), text.unicodeScalars.count - from)
            }
            let start = buffer.index(atUnicodeScalarOffset: from)
            let landing = text.unicodeScalars.index(text.unicodeScalars.index(text.startIndex, offsetBy: from), offsetBy: distance)
            #expect(buffer.index(start, offsetByUnicodeScalars: distance).utf8Offset == text.utf8.distance(from: text.startIndex, to: landing),
                    "\(comment), \(distance) scalars from \(from)")
        }
        #expect(buffer.index(validatingUTF16Offset: -1) == nil)
        #expect(buffer.index(validatingUTF16Offset: text.utf16.count + 1) == nil)
    }

    /// The UTF-8 offsets where `buffer`'s chunks start, and the offsets just around them
    /// that fall on scalar boundaries of `text`.
    static func chunkBoundaries(_ buffer: TextBuffer, _ text: String) -> [Int] {
        let bytes = Array(text.utf8)
        var offsets: [Int] = []
        var start = 0
        buffer.forEachUTF8Chunk { chunk in
            start += chunk.count
            offsets.append(start)
            var before = start - 1
            while before > 0, !bytes[before].isScalarStart { before -= 1 }
            var after = start + 1
            while after < bytes.count, !bytes[after].isScalarStart { after += 1 }
            if before >= 0 { offsets.append(before) }
            if after <= bytes.count { offsets.append(after) }
        }
        return [0] + offsets
    }

    @Test("Random texts and edits: every conversion agrees with String's views, at chunk boundaries too",
          arguments: [51, 52, 53, 54])
    func randomEdits(seed: UInt64) {
        var factory = TextFactory(seed: seed)
        var text = factory.text([0, 3_000, 30_000, 150_000][Int(seed % 4)])
        var buffer = TextBuffer(text)
        Self.checkConversions(buffer, text, utf8Offsets: Self.chunkBoundaries(buffer, text), random: &factory.random, comment: "built")
        for step in 0..<25 {
            let (range, replacement) = factory.edit(of: text)
            buffer.replaceUTF8Subrange(range, with: replacement)
            text = replacingUTF8(text, range, with: replacement)
            buffer._invariantCheck()
            #expect(holds(buffer, text), "step \(step)")
            Self.checkConversions(buffer, text, utf8Offsets: Self.chunkBoundaries(buffer, text),
                                  random: &factory.random, comment: "step \(step)")
        }
    }

    @Test("A text of emoji only: every chunk boundary splits no surrogate pair, offsets between halves are nil")
    func surrogatePairs() {
        var text = ""
        var random = SeededGenerator(seed: 55)
        // Emoji (4 bytes, a surrogate pair each) and a few other scalars, so chunks end
        // after every kind.
        let pieces = ["😀", "👍🏽", "🇫🇷", "\u{10FFFF}", "é", "a", "漢"]
        while text.utf8.count < 40_000 { text += pieces[Int.random(in: 0..<pieces.count, using: &random)] }
        var buffer = TextBuffer(text)
        for step in 0..<10 {
            buffer._invariantCheck()
            Self.checkConversions(buffer, text, utf8Offsets: Self.chunkBoundaries(buffer, text), random: &random, comment: "step \(step)")
            var utf16 = 0
            for scalar in text.unicodeScalars.prefix(2_000) {
                if scalar.utf16.count == 2 {
                    #expect(buffer.index(validatingUTF16Offset: utf16 + 1) == nil, "UTF-16 offset \(utf16 + 1)")
                }
                utf16 += scalar.utf16.count
            }
            let offset = Int.random(in: 0...text.unicodeScalars.count, using: &random)
            let at = buffer.index(atUnicodeScalarOffset: offset)
            buffer.insert("😀x", at: at)
            let stringIndex = text.unicodeScalars.index(text.startIndex, offsetBy: offset)
            text.unicodeScalars.insert(contentsOf: "😀x".unicodeScalars, at: stringIndex)
        }
        #expect(holds(buffer, text))
    }

    @Test("An empty buffer and the ends: offsets 0 and the counts map to the start and the end")
    func ends() {
        let empty = TextBuffer()
        #expect(empty.unicodeScalarCount == 0 && empty.utf16Count == 0)
        #expect(empty.index(atUnicodeScalarOffset: 0) == empty.startIndex)
        #expect(empty.index(atUTF16Offset: 0) == empty.startIndex)
        #expect(empty.unicodeScalarOffset(of: empty.endIndex) == 0)
        #expect(empty.utf16Offset(of: empty.endIndex) == 0)
        let buffer: TextBuffer = "a😀é"
        #expect(buffer.unicodeScalarCount == 3 && buffer.utf16Count == 4 && buffer.utf8Count == 7)
        #expect(buffer.index(atUnicodeScalarOffset: 3) == buffer.endIndex)
        #expect(buffer.index(atUTF16Offset: 4) == buffer.endIndex)
        #expect(buffer.index(atUTF16Offset: 3).utf8Offset == 5)
        #expect(buffer.index(validatingUTF16Offset: 2) == nil)
        #expect(buffer.utf16Offset(of: buffer.index(atUTF8Offset: 5)) == 3)
        #expect(buffer.unicodeScalarOffset(of: buffer.index(atUTF8Offset: 5)) == 2)
    }

    @Test("A long jump by scalars in a megabyte text costs about what a short one does")
    func longJumps() {
        var factory = TextFactory(seed: 56)
        let text = factory.text(1_000_000)
        let buffer = TextBuffer(text)
        let count = text.unicodeScalars.count
        let end = buffer.index(buffer.startIndex, offsetByUnicodeScalars: count)
        #expect(end == buffer.endIndex)
        #expect(buffer.index(end, offsetByUnicodeScalars: -count) == buffer.startIndex)
        // 2,000 jumps across the whole text: one scalar at a time this took seconds.
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            var index = buffer.startIndex
            for step in 0..<2_000 {
                index = buffer.index(index, offsetByUnicodeScalars: step.isMultiple(of: 2) ? count - 1 : -(count - 1))
            }
            #expect(index == buffer.startIndex)
        }
        #expect(elapsed < .seconds(5))
    }
}
