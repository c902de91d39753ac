import Revertible

/// Random text and random edits for the text buffer's tests and its history's: pieces mixing
/// ASCII with multi-byte scalars, combining characters, emoji sequences and flags, so cuts
/// land next to (never inside) every kind of scalar and inside grapheme clusters.
public struct TextFactory {
    public var random: SeededGenerator

    public init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    public static let pieces = [
        "a", "Hello", " ", "\n", "\r\n", "é", "e\u{301}", "\u{301}", "漢字", "👍", "👍🏽",
        "👨‍👩‍👧", "\u{200D}", "🇫🇷", "🇩", "ß", "ﬁ", "Ω", "\u{10FFFF}", "z",
    ]

    public mutating func piece() -> String {
        TextFactory.pieces[Int.random(in: 0..<TextFactory.pieces.count, using: &random)]
    }

    /// About `length` bytes of mixed text.
    public mutating func text(_ length: Int) -> String {
        var text = ""
        while text.utf8.count < length {
            if Bool.random(using: &random) {
                text += String(repeating: "lorem ipsum ", count: Int.random(in: 1...20, using: &random))
            } else {
                text += piece()
            }
        }
        return text
    }

    /// A random scalar boundary in `bytes` (its end included).
    public mutating func boundary(in bytes: [UInt8]) -> Int {
        var offset = Int.random(in: 0...bytes.count, using: &random)
        while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
        return offset
    }

    /// A random edit of `text`: where, how much to remove (scalar-aligned), what to insert.
    public mutating func edit(of text: String) -> (range: Range<Int>, replacement: String) {
        let bytes = Array(text.utf8)
        let lower = boundary(in: bytes)
        var upper = lower
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: break
        case 4..<8:
            upper = Swift.min(bytes.count, lower + Int.random(in: 0...8, using: &random))
        default:
            upper = Swift.min(bytes.count, lower + Int.random(in: 0...20_000, using: &random))
        }
        while upper < bytes.count, bytes[upper] & 0xC0 == 0x80 { upper += 1 }
        let replacement: String
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3 where upper > lower: replacement = ""
        case 0..<8: replacement = piece()
        default: replacement = self.text(Int.random(in: 0...9_000, using: &random))
        }
        return (lower..<upper, replacement)
    }
}

/// `text` with the UTF-8 bytes in `range` replaced by `replacement`'s: what a buffer's edit
/// must give, computed on plain bytes.
public func replacingUTF8(_ text: String, _ range: Range<Int>, with replacement: String) -> String {
    var bytes = Array(text.utf8)
    bytes.replaceSubrange(range, with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
}

/// Whether `buffer` holds exactly `text`'s bytes.
public func holds(_ buffer: TextBuffer, _ text: String) -> Bool {
    buffer.utf8Count == text.utf8.count && String(buffer).utf8.elementsEqual(text.utf8)
}
