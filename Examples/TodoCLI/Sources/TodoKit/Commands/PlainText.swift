/// Titles and tags are plain text: no terminal control characters, which would act on the
/// terminal of whoever lists them (`\e[2J` clears the screen). New ones are refused; any that
/// reach the file another way (an import, an edited database) are shown escaped. Invalid
/// UTF-8 is refused too.
enum PlainText {

    /// Whether `scalar` is a control character (C0, DEL or C1), or a bidirectional
    /// formatting character (the embeddings, overrides and isolates U+202A to U+202E and
    /// U+2066 to U+2069, the marks U+200E, U+200F and U+061C): those make a terminal show
    /// text in another order than it is stored (`list` showing "gpj.exe" for "exe.jpg"), as
    /// `ls` and `git` escape them.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The longest title or tag name, in bytes of UTF-8: a todo item is a line of text, and a
    /// title of 100 MB took 22 s and 1 GB of memory to add.
    static let maximumBytes = 4_096

    /// Throws if `text`, as typed (before runs of whitespace are collapsed), is so long that
    /// it cannot make a title or tag name: checked first, so a huge one costs nothing more.
    static func checkRawLength(_ text: String, what: String) throws(TodoError) {
        // A run of whitespace becomes one space, so allow for some before collapsing.
        if text.utf8.count > 16 * maximumBytes { throw tooLong(text.utf8.count, what: what) }
    }

    private static func tooLong(_ bytes: Int, what: String) -> TodoError {
        .badInput("\(what) is limited to \(maximumBytes) bytes of UTF-8 (got \(bytes))")
    }

    /// Throws unless `text` is at most ``maximumBytes`` long and free of control characters
    /// and of U+FFFD, the character
    /// invalid UTF-8 is decoded to (arguments and lines are decoded before `todo` sees them,
    /// so refusing U+FFFD is how invalid bytes are refused instead of stored changed).
    static func check(_ text: String, what: String) throws(TodoError) {
        if text.utf8.count > maximumBytes { throw tooLong(text.utf8.count, what: what) }
        if text.unicodeScalars.contains("\u{FFFD}") {
            throw .badInput("\(what) must be valid UTF-8 text (found invalid bytes, or U+FFFD)")
        }
        guard let control = text.unicodeScalars.first(where: isControl) else { return }
        let kind = control.value < 0x20 || (0x7F...0x9F).contains(control.value) ? "control" : "bidirectional formatting"
        throw .badInput("\(what) cannot contain \(kind) characters (found \(escaped(control)))")
    }

    /// `text` with each control character written as `\\u{1B}`, for output.
    static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) { result += escaped(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{\(String(repeating: "0", count: max(0, 2 - hex.count)) + hex)}"
    }
}
