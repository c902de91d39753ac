import TestSupport

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
