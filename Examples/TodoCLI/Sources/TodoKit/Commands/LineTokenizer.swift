/// Splits a line of the shell or a script into words, as a POSIX shell would for simple
/// cases: spaces separate words, `"…"` and `'…'` group them, and a backslash escapes the
/// next character (outside single quotes). So `add "buy milk"` and `add buy milk` are the
/// same, and `edit 2 'say "hi"'` keeps its quotes.
///
/// The line is read one Unicode scalar at a time, as a shell reads bytes, not one
/// `Character`: a quote followed by a combining mark is still a quote, though Swift joins the
/// two into one `Character`.
public enum LineTokenizer {

    /// The words of `line`; a line starting with `#` (after spaces) is a comment and has none.
    public static func words(of line: String) throws(TodoError) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var inWord = false
        var quote: Unicode.Scalar?
        var escaping = false
        for scalar in line.unicodeScalars {
            if escaping {
                current.append(scalar)
                escaping = false
                continue
            }
            switch (quote, scalar) {
            case (nil, "#") where !inWord:
                return words
            case (nil, "\\"), ("\"", "\\"):
                escaping = true
                inWord = true
            case (nil, "\""), (nil, "'"):
                quote = scalar
                inWord = true
            case let (open?, closing) where open == closing:
                quote = nil
            case (nil, let space) where space.properties.isWhitespace:
                if inWord { words.append(String(current)) }
                current = String.UnicodeScalarView()
                inWord = false
            default:
                current.append(scalar)
                inWord = true
            }
        }
        guard quote == nil else { throw .usage("unterminated quote in the line") }
        if escaping { current.append("\\") }
        if inWord { words.append(String(current)) }
        return words
    }
}
