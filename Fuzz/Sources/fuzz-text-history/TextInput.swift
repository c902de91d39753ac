// Reading a starting text and edits of it out of the fuzzer's bytes.
import FuzzSupport

/// Pieces of text the target builds from: the shared awkward text (combining marks, flag
/// halves, `\r\n`, zero-width joiners) plus the edges of each UTF-8 length and a few
/// multi-scalar clusters, so a cut at a scalar boundary lands anywhere in a long cluster.
let textPieces: [String] = FuzzInput.awkwardText + [
    "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{FFFD}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}",
    "𝔸", "👩🏽‍💻", "🇫🇷", "e\u{301}\u{308}", "한", "hello ", "world\n",
]

/// A UTF-8 range of the model, on scalar boundaries, and what replaces it.
struct TextEdit {
    var range: Range<Int>
    var replacement: String
}

/// Whether `offset` starts a scalar of `bytes` (or is its end).
func isScalarBoundary(_ bytes: [UInt8], _ offset: Int) -> Bool {
    offset == bytes.count || bytes[offset] & 0xC0 != 0x80
}

/// `offset`, clamped into `bytes`, moved back to the scalar boundary at or before it.
func boundary(atOrBefore offset: Int, in bytes: [UInt8]) -> Int {
    var offset = min(max(offset, 0), bytes.count)
    while !isScalarBoundary(bytes, offset) { offset -= 1 }
    return offset
}

/// `offset`, clamped into `bytes`, moved on to the scalar boundary at or after it.
func boundary(atOrAfter offset: Int, in bytes: [UInt8]) -> Int {
    var offset = min(max(offset, 0), bytes.count)
    while !isScalarBoundary(bytes, offset) { offset += 1 }
    return offset
}

extension FuzzInput {

    /// A piece of `textPieces`, one byte.
    mutating func piece() -> String {
        textPieces[int(below: textPieces.count)]
    }

    /// Up to `maxPieces` pieces.
    mutating func text(maxPieces: Int) -> String {
        var text = ""
        for _ in 0..<int(below: maxPieces + 1) { text += piece() }
        return text
    }

    /// The starting text: mostly short (one leaf), often several KB (a few leaves, two
    /// levels), sometimes up to 64 KB and now and then up to about 200 KB (three levels). A
    /// long text repeats a short pattern with a counter, so its leaves differ while the input
    /// stays small.
    mutating func startingText() -> String {
        let kind = int(below: 16)
        if kind < 10 { return text(maxPieces: 48) }
        let length: Int
        switch kind {
        case 10..<13: length = 1_024 + int(below: 20_000)
        case 13..<15: length = int(below: 65_536)
        default: length = 65_536 + 2 * int(below: 65_536)
        }
        var pattern = text(maxPieces: 24)
        if pattern.isEmpty { pattern = "abc" }
        var text = ""
        text.reserveCapacity(length + pattern.utf8.count + 8)
        var repetition = 0
        while text.utf8.count < length {
            text += pattern
            text += String(repetition, radix: 36)
            repetition += 1
        }
        return text
    }

    /// A position in `bytes`: near `cursor` (typing) or anywhere, on a scalar boundary.
    mutating func position(in bytes: [UInt8], near cursor: Int) -> Int {
        if bool() { return boundary(atOrBefore: cursor + int(in: -8...8), in: bytes) }
        return boundary(atOrBefore: int(below: 65_536) * (bytes.count + 1) / 65_536, in: bytes)
    }

    /// A short edit, as typing makes: a few pieces in, a few bytes out, or both.
    mutating func shortEdit(of bytes: [UInt8], near cursor: Int) -> TextEdit {
        let lower = position(in: bytes, near: cursor)
        switch int(below: 3) {
        case 0: return TextEdit(range: lower..<lower, replacement: text(maxPieces: 3))
        case 1: return TextEdit(range: lower..<boundary(atOrAfter: lower + int(in: 1...8), in: bytes), replacement: "")
        default: return TextEdit(range: lower..<boundary(atOrAfter: lower + int(below: 9), in: bytes), replacement: text(maxPieces: 4))
        }
    }

    /// A long edit: up to 16 KB removed, up to 12 KB put in, so it crosses leaves and makes
    /// or drops whole ones.
    mutating func longEdit(of bytes: [UInt8], near cursor: Int) -> TextEdit {
        let lower = position(in: bytes, near: cursor)
        let upper = bool() ? lower : boundary(atOrAfter: lower + int(below: 16_384), in: bytes)
        var replacement = ""
        if bool() {
            var pattern = text(maxPieces: 8)
            if pattern.isEmpty { pattern = "\u{301}x" }
            let length = int(below: 12_288)
            while replacement.utf8.count < length { replacement += pattern }
        }
        return TextEdit(range: lower..<upper, replacement: replacement)
    }
}
