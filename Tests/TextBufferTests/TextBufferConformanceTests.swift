import Testing
import TestSupport
@testable import TextBuffer

@Suite("TextBuffer: hashing, descriptions, counts and checked offsets")
struct TextBufferConformanceTests {

    @Test("Equal buffers hash alike however their chunks are cut; a set keeps one of them")
    func hashing() {
        var factory = TextFactory(seed: 21)
        let text = factory.text(60_000)
        let built = TextBuffer(text)
        // The same text appended in short pieces: leaves fill up and split in halves, so
        // they are cut at other places than when built at once.
        var edited = TextBuffer()
        var piece = ""
        for scalar in text.unicodeScalars {
            piece.unicodeScalars.append(scalar)
            if piece.utf8.count >= 700 {
                edited.append(piece)
                piece = ""
            }
        }
        edited.append(piece)
        var chunks: ([Int], [Int]) = ([], [])
        built.forEachUTF8Chunk { chunks.0.append($0.count) }
        edited.forEachUTF8Chunk { chunks.1.append($0.count) }
        #expect(chunks.0 != chunks.1, "the two are cut differently")
        #expect(built == edited)
        #expect(built.hashValue == edited.hashValue)
        #expect(Set([built, edited, TextBuffer(text)]).count == 1)
        #expect(Set([TextBuffer("é"), TextBuffer("e\u{301}"), TextBuffer(""), TextBuffer("\0"), TextBuffer("\0\0")]).count == 5)
        var dictionary: [TextBuffer: Int] = [built: 1]
        dictionary[edited, default: 0] += 1
        #expect(dictionary[TextBuffer(text)] == 2)
    }

    @Test("description is the text; debugDescription quotes it and cuts a long one short")
    func descriptions() {
        let buffer: TextBuffer = "Hello \"world\"\n"
        #expect(buffer.description == "Hello \"world\"\n")
        #expect("\(buffer)" == "Hello \"world\"\n")
        #expect(buffer.debugDescription == "\"Hello \\\"world\\\"\\n\"")
        #expect(String(reflecting: buffer) == buffer.debugDescription)
        let long = TextBuffer(String(repeating: "é", count: 100_000))
        let shown = long.debugDescription
        #expect(shown.utf8.count < 400)
        #expect(shown.hasPrefix("\"éé"))
        #expect(shown.hasSuffix("\"… (200000 UTF-8 bytes)"))
        #expect(TextBuffer(String(repeating: "a", count: 1_024)).debugDescription == String(repeating: "a", count: 1_024).debugDescription)
    }

    @Test("characters.count is String's count, with clusters across chunk boundaries",
          arguments: [31, 32])
    func characterCount(seed: UInt64) {
        var factory = TextFactory(seed: seed)
        var text = ""
        while text.utf8.count < 30_000 { text += factory.piece() }
        var buffer = TextBuffer(text)
        #expect(buffer.characters.count == text.count)
        for _ in 0..<20 {
            let (range, replacement) = factory.edit(of: text)
            buffer.replaceUTF8Subrange(range, with: replacement)
            text = replacingUTF8(text, range, with: replacement)
            buffer._invariantCheck()
            #expect(buffer.characters.count == text.count)
        }
        #expect(TextBuffer().characters.count == 0)
    }
}

@Suite("TextBuffer: checked UTF-8 offsets")
struct TextBufferValidatingOffsetTests {

    @Test("index(validatingUTF8Offset:) is nil outside the text and inside a scalar, else index(atUTF8Offset:)")
    func validatingUTF8Offset() {
        let text = "aé漢👍\u{301}z"
        let buffer = TextBuffer(text)
        for offset in -3...(text.utf8.count + 3) {
            let index = buffer.index(validatingUTF8Offset: offset)
            guard offset >= 0, offset <= text.utf8.count else {
                #expect(index == nil, "offset \(offset)")
                continue
            }
            let stringIndex = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
            let onBoundary = stringIndex.samePosition(in: text.unicodeScalars) != nil
            #expect((index != nil) == onBoundary, "offset \(offset)")
            if onBoundary {
                #expect(index == buffer.index(atUTF8Offset: offset))
            }
        }
        #expect(TextBuffer().index(validatingUTF8Offset: 0) == TextBuffer().startIndex)
        #expect(TextBuffer().index(validatingUTF8Offset: 1) == nil)
        #expect(TextBuffer().index(validatingUTF8Offset: .min) == nil)
        #expect(buffer.index(validatingUTF8Offset: .max) == nil)
    }

    @Test("On a long text, across chunks: every scalar start is valid, every continuation byte is not")
    func validatingUTF8OffsetLong() {
        var factory = TextFactory(seed: 41)
        let text = factory.text(50_000)
        let buffer = TextBuffer(text)
        let bytes = Array(text.utf8)
        for offset in 0...bytes.count {
            let expected = offset == bytes.count || bytes[offset].isScalarStart
            #expect((buffer.index(validatingUTF8Offset: offset) != nil) == expected, "offset \(offset)")
        }
    }
}
