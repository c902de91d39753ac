import Foundation

/// Items' short stable ids: the start of the item's UUID in lowercase hex, at least
/// ``minimumLength`` digits, longer where two items of the list would share it, and always
/// with a letter in it, so an id never reads as a position.
enum ShortID {
    static let minimumLength = 4

    /// The UUID's 32 hex digits, lowercase.
    static func hex(_ id: UUID) -> String {
        id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The shortest unique ids of `items`, in their order.
    static func ids(for items: some Sequence<TodoItem>) -> [String] {
        let hexes = items.map { hex($0.id) }
        // Sorted, each id's neighbours are the ones that share most of its start.
        let sorted = hexes.sorted()
        var shared: [String: Int] = [:]
        for index in sorted.indices {
            var longest = 0
            for neighbour in [index - 1, index + 1] where sorted.indices.contains(neighbour) {
                longest = max(longest, zip(sorted[index], sorted[neighbour]).prefix { $0 == $1 }.count)
            }
            shared[sorted[index]] = longest
        }
        return hexes.map { hex in
            var length = max(minimumLength, (shared[hex] ?? 0) + 1)
            while length < hex.count, !hex.prefix(length).contains(where: \.isLetter) { length += 1 }
            return String(hex.prefix(min(length, hex.count)))
        }
    }

    /// Whether `prefix` (as ``ItemReference/id(_:)`` holds it) names `id`.
    static func matches(_ prefix: String, _ id: UUID) -> Bool {
        hex(id).hasPrefix(prefix)
    }
}
