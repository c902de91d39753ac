import Foundation
import Testing
import TestSupport
@testable import TextBuffer

@Suite("TextBuffer: text, positions and views")
struct TextBufferTests {

    @Test("A string goes in and comes out unchanged, at every size")
    func stringRoundTrip() {
        var factory = TextFactory(seed: 7)
        for length in [0, 1, 100, 4_096, 4_097, 50_000, 300_000] {
            let text = factory.text(length)
            let buffer = TextBuffer(text)
            buffer._invariantCheck()
            #expect(holds(buffer, text), "length \(length)")
            #expect(buffer.isEmpty == text.isEmpty)
            #expect(TextBuffer(Substring(text)) == buffer)
        }
    }

    @Test("Its UTF-8 chunks, in order, are the string's bytes, at every size and after edits")
    func utf8Chunks() {
        var factory = TextFactory(seed: 11)
        for length in [0, 1, 4_096, 4_097, 300_000] {
            var text = factory.text(length)
            var buffer = TextBuffer(text)
            if length > 2 {
                buffer.insert("é", atUTF8Offset: 0)
                text.insert("é", at: text.startIndex)
            }
            var bytes: [UInt8] = []
            var chunkCount = 0
            buffer.forEachUTF8Chunk { chunk in
                bytes += chunk
                chunkCount += 1
            }
            #expect(bytes == Array(text.utf8), "length \(length)")
            #expect(length < 5_000 || chunkCount > 1, "a long text comes in several chunks")
        }
    }

    @Test("Edits by UTF-8 offset and by index match the same edits on bytes")
    func edits() {
        var buffer: TextBuffer = "Hello world"
        buffer.insert(",", atUTF8Offset: 5)
        #expect(String(buffer) == "Hello, world")
        buffer.replaceUTF8Subrange(7..<12, with: "🌍")
        #expect(String(buffer) == "Hello, 🌍")
        buffer.removeUTF8Subrange(5..<6)
        #expect(String(buffer) == "Hello 🌍")
        let start = buffer.startIndex
        let afterHello = buffer.index(start, offsetByCharacters: 5)
        buffer.insert("!", at: afterHello)
        #expect(String(buffer) == "Hello! 🌍")
        let globe = buffer.index(buffer.endIndex, offsetByUnicodeScalars: -1)
        #expect(buffer[globe..<buffer.endIndex] == "🌍")
        buffer.replaceSubrange(globe..<buffer.endIndex, with: "there")
        buffer.removeSubrange(buffer.startIndex..<buffer.index(atUTF8Offset: 7))
        buffer.append(".")
        #expect(String(buffer) == "there.")
        #expect(buffer[utf8Range: 0..<3] == "the")
    }

    @Test("Character and scalar offsets agree with String's",
          arguments: [1, 2, 3])
    func offsets(seed: UInt64) {
        var factory = TextFactory(seed: seed)
        let text = factory.text(20_000)
        let buffer = TextBuffer(text)
        let characters = Array(text)
        for _ in 0..<50 {
            let distance = Int.random(in: 0...characters.count, using: &factory.random)
            let expected = text.utf8.distance(from: text.startIndex, to: text.index(text.startIndex, offsetBy: distance))
            #expect(buffer.index(buffer.startIndex, offsetByCharacters: distance).utf8Offset == expected)
        }
        let scalars = Array(text.unicodeScalars)
        let distance = Int.random(in: 0...scalars.count, using: &factory.random)
        let forward = buffer.index(buffer.startIndex, offsetByUnicodeScalars: distance)
        let expected = text.utf8.distance(from: text.startIndex, to: text.unicodeScalars.index(text.startIndex, offsetBy: distance))
        #expect(forward.utf8Offset == expected)
        #expect(buffer.index(forward, offsetByUnicodeScalars: -distance) == buffer.startIndex)
    }

    @Test("The views list String's scalars and characters, across chunk boundaries",
          arguments: [4, 5, 6])
    func views(seed: UInt64) {
        var factory = TextFactory(seed: seed)
        // Mostly pieces, so grapheme clusters and flags straddle chunk boundaries.
        var text = ""
        while text.utf8.count < 40_000 { text += factory.piece() }
        let buffer = TextBuffer(text)
        #expect(Array(buffer.unicodeScalars) == Array(text.unicodeScalars))
        let characters = Array(buffer.characters)
        #expect(characters.count == text.count)
        #expect(characters.map { Array($0.unicodeScalars) } == text.map { Array($0.unicodeScalars) })
    }

    @Test("Equality is by scalars: a canonically equivalent spelling is a different text")
    func equality() {
        #expect(TextBuffer("é") != TextBuffer("e\u{301}"))
        #expect(TextBuffer("abc") == TextBuffer("abc"))
        var factory = TextFactory(seed: 9)
        let text = factory.text(100_000)
        let a = TextBuffer(text)
        var b = a
        b.insert("x", atUTF8Offset: 50_000)
        // Past 64 KB an edit no longer checks the tree itself: the tests do.
        b._invariantCheck()
        #expect(a != b)
        b.removeUTF8Subrange(50_000..<50_001)
        b._invariantCheck()
        #expect(a == b)
    }

    @Test("A copy shares its storage: an edit of one leaves the other as it was")
    func valueSemantics() {
        var factory = TextFactory(seed: 10)
        let text = factory.text(200_000)
        let original = TextBuffer(text)
        var copy = original
        copy.replaceUTF8Subrange(0..<copy.utf8Count, with: "short")
        #expect(holds(original, text))
        #expect(String(copy) == "short")
        original._invariantCheck()
        copy._invariantCheck()
    }

    @Test("Edits on a deep tree (megabytes) keep it valid and match the same edits on bytes")
    func deepTree() {
        var factory = TextFactory(seed: 12)
        var text = factory.text(1_500_000)
        var buffer = TextBuffer(text)
        let original = buffer
        for step in 0..<60 {
            var (range, replacement) = factory.edit(of: text)
            switch step % 10 {
            case 3: range = 0..<text.utf8.count - 10
            case 6: replacement = factory.text(600_000)
            default: break
            }
            while range.upperBound < text.utf8.count, !text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: range.upperBound)].isScalarStart {
                range = range.lowerBound..<(range.upperBound + 1)
            }
            buffer.replaceUTF8Subrange(range, with: replacement)
            text = replacingUTF8(text, range, with: replacement)
            buffer._invariantCheck()
            #expect(holds(buffer, text), "step \(step)")
        }
        original._invariantCheck()
    }

    @Test("Codable: a buffer encodes as its string and decodes back")
    func codable() throws {
        var factory = TextFactory(seed: 11)
        let text = factory.text(30_000)
        let buffer = TextBuffer(text)
        let data = try JSONEncoder().encode(buffer)
        #expect(try JSONDecoder().decode(String.self, from: data) == text)
        let decoded = try JSONDecoder().decode(TextBuffer.self, from: data)
        #expect(decoded == buffer)
        decoded._invariantCheck()
    }
}

extension UInt8 {
    /// Whether a UTF-8 byte starts a scalar.
    var isScalarStart: Bool { self & 0xC0 != 0x80 }
}
