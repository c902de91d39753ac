/// Checks the numbers in a JSON document read from the file before it is decoded: each must
/// be a whole number of at most 2^62 in magnitude.
///
/// The history's numbers (version counters, change counts, depths, times in nanoseconds) are
/// used in arithmetic that traps on overflow, so a crafted file with the outline's `next` at
/// 2^64-1 made `add` crash, and a step's change count at 2^63-1 made `commit` crash. Real
/// values stay far below 2^62 (a time in nanoseconds since 1970 reaches it in 2116), so
/// anything larger is damage. Digits inside strings (titles) are not numbers and are skipped.
enum JSONNumberCheck {
    /// The largest magnitude accepted.
    static let limit: UInt64 = 1 << 62

    /// Whether every number in `bytes` is a whole number within ``limit``.
    static func isSound(_ bytes: some Sequence<UInt8>) -> Bool {
        var inString = false
        var escaped = false
        var value: UInt64 = 0
        var digits = 0
        var inNumber = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                inNumber = true
                digits += 1
                // 20 digits always exceed the limit; stop accumulating before UInt64 overflows.
                guard digits < 20 else { return false }
                value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
                if value > limit { return false }
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                // A fraction or an exponent: no number of the history has one.
                if inNumber { return false }
            default:
                inNumber = false
                value = 0
                digits = 0
                if byte == UInt8(ascii: "\"") { inString = true }
            }
        }
        return true
    }
}
