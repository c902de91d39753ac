import Testing
@testable import TodoKit

/// The shell's line editor, driven by the bytes a terminal would send.
@Suite("Line editor")
struct LineEditorTests {

    /// Feeds `input` to a decoder and an editor; returns the outcomes other than `.editing`.
    static func type(_ input: String, into editor: inout LineEditor) -> [LineEditor.Outcome] {
        var decoder = KeyDecoder()
        var outcomes: [LineEditor.Outcome] = []
        for byte in input.utf8 {
            for key in decoder.feed(byte) {
                let outcome = editor.handle(key)
                if outcome != .editing { outcomes.append(outcome) }
            }
        }
        return outcomes
    }

    @Test("Escape sequences and control characters become keys; unknown ones are ignored")
    func decoding() {
        var decoder = KeyDecoder()
        let keys = "\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OH\u{1B}[4~\u{1B}[3~\u{1B}[1;5C\u{7F}\u{01}\u{05}\u{03}\u{04}\té\r".utf8.flatMap { decoder.feed($0) }
        #expect(keys == [.up, .down, .right, .left, .home, .end, .delete, .right, .backspace, .home, .end, .cancel, .endOfInput, .ignored, .character("é"), .enter])
    }

    @Test("Left, right, Home, End, backspace and Delete edit in the middle of the line")
    func editing() {
        var editor = LineEditor()
        editor.startLine()
        // "add mlk", left twice, insert "i"; Ctrl-A, Delete "a"; End, backspace "k", type "k!".
        let outcomes = Self.type("add mlk\u{1B}[D\u{1B}[Di\u{01}\u{1B}[3~\u{05}\u{7F}k!\r", into: &editor)
        #expect(outcomes == [.line("dd milk!")])
        #expect(editor.text.isEmpty)
    }

    @Test("Up and down go through earlier lines and come back to the line being typed")
    func history() {
        var editor = LineEditor()
        editor.startLine()
        #expect(Self.type("add milk\radd eggs\r\r", into: &editor) == [.line("add milk"), .line("add eggs"), .line("")])
        #expect(editor.history == ["add milk", "add eggs"], "a blank line is not remembered")
        #expect(Self.type("li\u{1B}[A\u{1B}[A", into: &editor) == [])
        #expect(String(editor.text) == "add milk")
        #expect(Self.type("\u{1B}[A", into: &editor) == [], "past the oldest, it stays")
        #expect(String(editor.text) == "add milk")
        #expect(Self.type("\u{1B}[B\u{1B}[B", into: &editor) == [])
        #expect(String(editor.text) == "li", "the draft comes back")
        #expect(Self.type("st\r", into: &editor) == [.line("list")])
    }

    @Test("Ctrl-C abandons the line; Ctrl-D leaves on an empty line only")
    func cancelAndLeave() {
        var editor = LineEditor()
        editor.startLine()
        #expect(Self.type("rm 1\u{03}", into: &editor) == [.cancelled])
        #expect(editor.text.isEmpty)
        #expect(editor.history.isEmpty, "an abandoned line is not remembered")
        #expect(Self.type("ab\u{01}\u{04}", into: &editor) == [], "Ctrl-D deletes under the cursor")
        #expect(String(editor.text) == "b")
        #expect(Self.type("\u{05}\u{15}\u{04}", into: &editor) == [.endOfInput])
    }

    @Test("The line is redrawn from the start of the row, the cursor put back in place")
    func rendering() {
        var editor = LineEditor()
        editor.startLine()
        _ = Self.type("abc\u{1B}[D\u{1B}[D", into: &editor)
        #expect(editor.render(prompt: "todo> ") == "\rtodo> abc\u{1B}[K\u{1B}[2D")
        _ = Self.type("\u{05}", into: &editor)
        #expect(editor.render(prompt: "todo> ") == "\rtodo> abc\u{1B}[K")
    }

    /// Issue 27, item 16: the cursor went back one column per character, so after wide
    /// characters it landed in the wrong column.
    @Test("The cursor goes back by display columns: two for CJK and emoji, none for a combining mark")
    func wideCharacters() {
        var editor = LineEditor()
        editor.startLine()
        _ = Self.type("a日本\u{1B}[D\u{1B}[D", into: &editor)
        #expect(editor.render(prompt: "todo> ") == "\rtodo> a日本\u{1B}[K\u{1B}[4D")
        editor.startLine()
        _ = Self.type("x😀e\u{301}y\u{1B}[D\u{1B}[D\u{1B}[D\u{1B}[D", into: &editor)
        #expect(editor.render(prompt: "todo> ") == "\rtodo> x😀e\u{301}y\u{1B}[K\u{1B}[4D")
        #expect(LineEditor.columns(of: "한") == 2)
        #expect(LineEditor.columns(of: "Ａ") == 2)
        #expect(LineEditor.columns(of: "é") == 1)
        #expect(LineEditor.columns(of: "\u{200B}") == 0)
    }
}
