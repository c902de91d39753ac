import Foundation

/// Items' short stable ids: the start of the item's UUID in lowercase hex, at least
/// ``minimumLength`` digits, longer where two items of the list would share it, and with a
/// letter in it, so an id never reads as a position. A UUID without a letter (about one in
/// three million) keeps all 32 digits: no position is that long.
enum ShortID {
    static let minimumLength = 4

    /// The UUID's 32 hex digits, lowercase.
    static func hex(_ id: UUID) -> String {
        // Spelled from the bytes: `list` on a server spells every item's, and going through
        // `uuidString` and replacing its dashes took most of a long list's time.
        withUnsafeBytes(of: id.uuid) { bytes in
            String(unsafeUninitializedCapacity: 32) { buffer in
                for (index, byte) in bytes.enumerated() {
                    buffer[2 * index] = hexDigits[Int(byte >> 4)]
                    buffer[2 * index + 1] = hexDigits[Int(byte & 0x0F)]
                }
                return 32
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The shortest unique ids of `items`, in their order.
    ///
    /// Compared as numbers, not as text: `list` on a server shows every item's id, and
    /// sorting and hashing 100,000 strings cost more than reading the list.
    static func ids(for items: some Sequence<TodoItem>) -> [String] {
        let ids = items.map(\.id)
        let numbers = ids.map(number)
        // Sorted, each id's neighbours are the ones that share most of its start.
        let order = numbers.indices.sorted { numbers[$0] < numbers[$1] }
        var shared = [Int](repeating: 0, count: numbers.count)
        for (rank, index) in order.enumerated() {
            for neighbour in [rank - 1, rank + 1] where order.indices.contains(neighbour) {
                shared[index] = max(shared[index], commonDigits(numbers[index], numbers[order[neighbour]]))
            }
        }
        let letterA = UInt8(ascii: "a")
        return ids.indices.map { index in
            let digits = Array(hex(ids[index]).utf8)
            var length = max(minimumLength, shared[index] + 1)
            while length < digits.count, !digits[..<length].contains(where: { $0 >= letterA }) { length += 1 }
            return String(decoding: digits[..<min(length, digits.count)], as: UTF8.self)
        }
    }

    /// The UUID's 128 bits, first byte highest: ordered as its hex digits are.
    private static func number(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { bytes in
            (bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }, bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
        }
    }

    /// How many leading hex digits two UUIDs share.
    private static func commonDigits(_ a: (UInt64, UInt64), _ b: (UInt64, UInt64)) -> Int {
        let high = a.0 ^ b.0
        if high != 0 { return high.leadingZeroBitCount / 4 }
        return 16 + (a.1 ^ b.1).leadingZeroBitCount / 4
    }

    /// Whether `prefix` (as ``ItemReference/id(_:)`` holds it) names `id`.
    static func matches(_ prefix: String, _ id: UUID) -> Bool {
        hex(id).hasPrefix(prefix)
    }
}
