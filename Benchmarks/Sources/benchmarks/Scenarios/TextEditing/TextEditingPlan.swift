/// A document of N UTF-8 bytes and the edits the `text-editing` scenario makes to it, all
/// made before anything is timed, with the texts the edits must give.
///
/// The document is lines of words, mostly ASCII with accented letters, CJK and emoji mixed
/// in; every line starts with an ASCII letter and ends with `.\n`. Typing goes in bursts of
/// ``burst`` characters, each at the start of a random line (a scalar boundary in every
/// version); removals are of the line breaks of distinct random lines.
struct TextEditingPlan {
    static let burst = 10
    static let words = ["lorem", "ipsum", "dolor", "sit", "amet", "café", "naïve", "漢字", "テキスト", "👍", "🇫🇷", "e\u{301}tude", "ß"]

    let text: String
    /// The offset of each typed character, in the order typed.
    let typing: [Int]
    /// The characters typed, in order (ASCII).
    let typed: [String]
    /// The text after all the typing.
    let typedText: String
    /// The offset of each removal, in the order removed, in the original text.
    let removals: [Int]
    /// The text after the removals.
    let removedText: String

    init(bytes n: Int, characters k: Int, seed: UInt64) {
        var random = SeededGenerator(seed: seed ^ 0x7E47)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(n + 100)
        var lineStarts: [Int] = []
        while bytes.count < n {
            lineStarts.append(bytes.count)
            bytes.append(contentsOf: "Line".utf8)
            for _ in 0..<Int.random(in: 4...12, using: &random) {
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: Self.words[Int.random(in: 0..<Self.words.count, using: &random)].utf8)
            }
            bytes.append(contentsOf: ".\n".utf8)
        }
        text = String(decoding: bytes, as: UTF8.self)

        // Typing: bursts at line starts; a burst shifts the lines after its own.
        let letters = Array("the quick brown fox jumps over a lazy dog ").map(String.init)
        var bases: [Int] = []
        var typing: [Int] = []
        var typed: [String] = []
        while typing.count < k {
            let base = lineStarts[Int.random(in: 0..<lineStarts.count, using: &random)]
            let shift = Self.burst * bases.count { $0 < base }
            bases.append(base)
            for offset in 0..<Swift.min(Self.burst, k - typing.count) {
                typing.append(base + shift + offset)
                typed.append(letters[typed.count % letters.count])
            }
        }
        self.typing = typing
        self.typed = typed
        // The typed text, built in one pass: at each base, the later bursts come first.
        var inserts: [(base: Int, order: Int, text: [UInt8])] = []
        for (burst, base) in bases.enumerated() {
            let characters = typed[(burst * Self.burst)..<Swift.min((burst + 1) * Self.burst, typed.count)]
            inserts.append((base, -burst, Array(characters.joined().utf8)))
        }
        inserts.sort { ($0.base, $0.order) < ($1.base, $1.order) }
        var typedBytes: [UInt8] = []
        typedBytes.reserveCapacity(bytes.count + k)
        var copied = 0
        for insert in inserts {
            typedBytes.append(contentsOf: bytes[copied..<insert.base])
            typedBytes.append(contentsOf: insert.text)
            copied = insert.base
        }
        typedBytes.append(contentsOf: bytes[copied...])
        typedText = String(decoding: typedBytes, as: UTF8.self)

        // Removals: the line breaks before distinct random lines.
        var chosen = Set<Int>()
        var removals: [Int] = []
        var originals: [Int] = []
        while removals.count < Swift.min(k, lineStarts.count - 1) {
            let line = Int.random(in: 1..<lineStarts.count, using: &random)
            guard chosen.insert(line).inserted else { continue }
            let offset = lineStarts[line] - 1
            removals.append(offset - originals.count { $0 < offset })
            originals.append(offset)
        }
        self.removals = removals
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var from = 0
        for offset in originals.sorted() {
            kept.append(contentsOf: bytes[from..<offset])
            from = offset + 1
        }
        kept.append(contentsOf: bytes[from...])
        removedText = String(decoding: kept, as: UTF8.self)
    }
}
