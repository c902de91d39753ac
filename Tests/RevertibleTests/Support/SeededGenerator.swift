/// A small, fast, seedable generator (SplitMix64), so every random test can be replayed from
/// the seed it prints.
struct SeededGenerator: RandomNumberGenerator {

    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {

    /// A string mixing ASCII, accented letters, combining marks and emoji, so byte runs are
    /// cut at every kind of scalar boundary.
    mutating func string(maxLength: Int) -> String {
        let alphabet: [String] = ["a", "b", "c", " ", "é", "e\u{301}", "ß", "😀", "👩‍👩‍👧", "中", "\n", "z"]
        let length = Int.random(in: 0...maxLength, using: &self)
        return (0..<length).map { _ in alphabet.randomElement(using: &self)! }.joined()
    }

    /// `string`, edited: a run inserted, removed or replaced somewhere.
    mutating func edited(_ string: String) -> String {
        var scalars = Array(string.unicodeScalars)
        let start = Int.random(in: 0...scalars.count, using: &self)
        let end = Int.random(in: start...min(scalars.count, start + 4), using: &self)
        let replacement = Array(self.string(maxLength: 3).unicodeScalars)
        scalars.replaceSubrange(start..<end, with: replacement)
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}
