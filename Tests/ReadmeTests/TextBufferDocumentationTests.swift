import Testing
import TextBuffer

// The code examples of TextBuffer's documentation (`TextBuffer.docc` and the module's doc
// comments), line for line (`ReadmeSyncTests` checks it); `#expect` states what each example
// says.

@Suite("TextBuffer documentation examples")
struct TextBufferDocumentationTests {

    @Test("Copies share their chunks; an edit copies one path")
    func sharing() {
        var text = TextBuffer(String(repeating: "lorem ipsum ", count: 100_000))
        let before = text                       // O(1): shares every chunk
        text.insert("Hello, ", atUTF8Offset: 0) // O(log n): copies one path of chunks
        #expect(text.utf8Count == before.utf8Count + 7)
        #expect(text[utf8Range: 0 ..< 12] == "Hello, lorem")
        #expect(before[utf8Range: 0 ..< 12] == "lorem ipsum ")
    }

    @Test("Positions in UTF-16 code units and scalars, and a checked offset")
    func unitOffsets() {
        let line = TextBuffer("naïve 👍 text")
        let start = line.index(atUTF16Offset: 9) // as an editor counting UTF-16 code units
        #expect(start.utf8Offset == 12)
        #expect(line.unicodeScalarOffset(of: start) == 8)
        #expect(line[start ..< line.endIndex] == "text")
        #expect(line.index(validatingUTF16Offset: 7) == nil) // between the emoji's two halves
    }

    @Test("TextBuffer: editing by UTF-8 offset")
    func textBufferEditing() {
        var text = TextBuffer("Hello world")
        text.insert(",", atUTF8Offset: 5)
        let edited = String(text) // "Hello, world"
        #expect(edited == "Hello, world")
    }
}
