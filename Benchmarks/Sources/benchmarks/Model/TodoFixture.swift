import Foundation

/// Builds todo states with realistic, reproducible contents.
///
/// Every string is made separately (no two items share storage), as they would be after
/// decoding a file, so copying and comparing costs what it costs in an app.
enum TodoFixture {

    /// Short words, so titles and notes are plain ASCII of a predictable length.
    static let words = [
        "buy", "milk", "eggs", "call", "mom", "fix", "bike", "tire", "write", "report",
        "draft", "email", "plan", "trip", "book", "hotel", "pay", "rent", "water", "plants",
        "clean", "garage", "review", "budget", "renew", "passport", "order", "paint", "walk",
        "dog", "send", "invoice", "sort", "photos", "bake", "bread", "read", "chapter", "pick",
        "tickets", "check", "tax", "forms", "update", "resume", "return", "library", "books",
    ]

    /// A state of `count` items.
    static func state(count: Int, using generator: inout SeededGenerator) -> TodoState {
        TodoState(items: (0..<count).map { _ in item(using: &generator) })
    }

    static func item(using generator: inout SeededGenerator) -> TodoItem {
        TodoItem(
            id: uuid(using: &generator),
            title: text(length: 30, using: &generator),
            isDone: generator.next() & 1 == 0,
            notes: text(length: 200, using: &generator)
        )
    }

    /// Words separated by spaces, about `length` characters (never shorter).
    static func text(length: Int, using generator: inout SeededGenerator) -> String {
        var text = word(using: &generator).capitalized
        while text.utf8.count < length {
            text += " " + word(using: &generator)
        }
        return text
    }

    static func word(using generator: inout SeededGenerator) -> String {
        words[Int(generator.next(upperBound: UInt64(words.count)))]
    }

    /// A version 4 UUID drawn from `generator`, so ids are reproducible too.
    static func uuid(using generator: inout SeededGenerator) -> UUID {
        var bytes = (generator.next(), generator.next())
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = raw[6] & 0x0F | 0x40 // version 4
            raw[8] = raw[8] & 0x3F | 0x80 // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }
}
