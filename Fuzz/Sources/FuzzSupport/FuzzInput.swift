/// The fuzzer's bytes, read front to back as small decisions.
///
/// Every read succeeds: once the bytes run out, reads return zero (so `int(below:)` gives 0,
/// `bool()` gives `false`, and loops bounded by a read end). This keeps the mapping from
/// bytes to values total and stable, which is what lets libFuzzer's mutations of a prefix
/// explore nearby values instead of falling off a cliff.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0
    /// Words handed out by `randomWord()` after the end.
    private var wordsPastEnd: UInt64 = 0

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    public mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// A number in `0..<bound` (`bound` at most 65,536), from one byte when `bound` fits in
    /// one, two otherwise.
    public mutating func int(below bound: Int) -> Int {
        precondition(bound > 0 && bound <= 65_536)
        if bound <= 256 { return Int(byte()) % bound }
        return (Int(byte()) << 8 | Int(byte())) % bound
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.count)
    }

    /// A signed 64-bit integer from eight bytes, so the extremes (`Int.min`, `Int.max`) are
    /// reachable.
    public mutating func int64() -> Int64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return Int64(bitPattern: value)
    }

    /// A 64-bit word for a random number generator: eight bytes while there are any, then a
    /// fixed sequence (SplitMix64 of a counter), never a constant. A generator that returns
    /// only zeros makes the standard library's `next(upperBound:)` (and so `shuffle(using:)`)
    /// loop forever: its rejection sampling never accepts one.
    public mutating func randomWord() -> UInt64 {
        if !isAtEnd { return UInt64(bitPattern: int64()) }
        wordsPastEnd &+= 1
        var z = wordsPastEnd &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The rest of the bytes, unread until now.
    public mutating func remainingBytes() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }

    /// A string of at most `maxLength` pieces, each a piece of `alphabet` chosen by one byte.
    public mutating func string(maxLength: Int, alphabet: [String] = FuzzInput.awkwardText) -> String {
        let length = int(below: maxLength + 1)
        var text = ""
        for _ in 0..<length { text += alphabet[int(below: alphabet.count)] }
        return text
    }

    /// Text that is hard on string code: ASCII, multi-byte scalars, combining marks that join
    /// the character before them, halves of flags and of `\r\n`, an emoji with a skin-tone
    /// modifier, a zero-width joiner, whitespace of several kinds, quotes and backslashes.
    public static let awkwardText: [String] = [
        "a", "b", "c", "x", " ", "é", "e", "\u{301}", "\u{308}", "🇫", "🇷", "👍", "\u{1F3FD}",
        "\u{200D}", "\r", "\n", "\r\n", "\t", "\u{A0}", "\u{2028}", "ß", "漢", "\"", "'", "\\",
        "#", "-", "--", "=", "0", "1", "9", "\u{0}", "\u{FEFF}",
    ]
}
