/// Splits a line of the shell or a script into words, as a POSIX shell would for simple
/// cases: spaces separate words, `"…"` and `'…'` group them, and a backslash escapes the
/// next character (outside single quotes). So `add "buy milk"` and `add buy milk` are the
/// same, and `edit 2 'say "hi"'` keeps its quotes.
public enum LineTokenizer {

    /// The words of `line`; a line starting with `#` (after spaces) is a comment and has none.
    public static func words(of line: String) throws(TodoError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for character in line {
            if escaping {
                current.append(character)
                escaping = false
                continue
            }
            switch (quote, character) {
            case (nil, "#") where !inWord:
                return words
            case (nil, "\\"), ("\"", "\\"):
                escaping = true
                inWord = true
            case (nil, "\""), (nil, "'"):
                quote = character
                inWord = true
            case let (open?, closing) where open == closing:
                quote = nil
            case (nil, let space) where space.isWhitespace:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { throw .usage("unterminated quote in the line") }
        if escaping { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }
}
