/// What makes two names of people look alike: the scripts whose letters are mistaken for
/// each other (Latin "a", Cyrillic "а", Greek "α" and Armenian "օ" print the same in most
/// fonts). A name may be in any script, but in one of these at most, so that no name prints
/// like another made of the other script's letters.
enum PersonName {

    /// The look-alike scripts whose letters `name` holds, in the order first met.
    static func lookAlikeScripts(in name: String) -> [String] {
        var found: [String] = []
        for scalar in name.unicodeScalars where scalar.properties.isAlphabetic {
            guard let script = lookAlikeScript(of: scalar), !found.contains(script) else { continue }
            found.append(script)
        }
        return found
    }

    /// The look-alike script of `scalar`, by the Unicode blocks that hold its letters;
    /// `nil` for any other script (a name may mix Latin with Han, say).
    static func lookAlikeScript(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            "Latin"
        case 0x370...0x3FF, 0x1F00...0x1FFF:
            "Greek"
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F:
            "Cyrillic"
        case 0x530...0x58F:
            "Armenian"
        default:
            nil
        }
    }

    /// `scalar` as its code point, `U+200B`, for messages: the character itself would not
    /// show.
    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
