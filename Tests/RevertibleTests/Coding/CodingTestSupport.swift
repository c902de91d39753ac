import Foundation
import Testing
@testable import Revertible

/// Writes `reversion` as JSON, with sorted keys so two writings can be compared byte for byte.
func encoded<Root: Encodable>(_ reversion: Reversion<Root>) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(reversion)
}

/// Reads a reversion as `JSONDecoder` does, and checks that the library's JSON reader reads
/// the same both ways: through `Decoder` (`JSONDocumentDecoding`) and straight from the parsed
/// text, as `HistoryArchive(json:)` reads each step's (see ``readBothWays(_:from:sourceLocation:reading:same:)``).
func decoded<Root: Codable>(
    _ data: Data, as root: Root.Type = Root.self, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Reversion<Root> {
    let same = { (a: Reversion<Root>, b: Reversion<Root>) in try HistoryArchiveChecksum.of(a) == HistoryArchiveChecksum.of(b) }
    _ = try? readBothWays(Reversion<Root>.self, from: data, sourceLocation: sourceLocation, reading: readDirectly, same: same)
    return try readBothWays(Reversion<Root>.self, from: data, sourceLocation: sourceLocation, same: same)
}

/// Reads a reversion straight from its JSON, its changes too, without `Decoder`.
func readDirectly<Root: Decodable>(_ data: Data) throws -> Reversion<Root> {
    let document = try JSONDocumentDecoding.document(from: [UInt8](data))
    return try Reversion(reading: JSONObjectReader(document, at: 0, path: nil))
}

/// Reads an archive as `JSONDecoder` does, and checks that `HistoryArchive(json:)` reads the
/// same (see ``readBothWays(_:from:sourceLocation:same:)``).
func readArchive<Value: Codable>(
    _ type: HistoryArchive<Value>.Type, from data: Data, sourceLocation: SourceLocation = #_sourceLocation
) throws -> HistoryArchive<Value> {
    // Compared by checksum, which counts a set's members in any order: two equal sets may
    // encode them in different orders.
    try readBothWays(type, from: data, sourceLocation: sourceLocation, reading: { try HistoryArchive(json: $0) }) {
        try HistoryArchiveChecksum.of($0) == HistoryArchiveChecksum.of($1)
    }
}

/// Reads `data` with `JSONDecoder`, and returns what it read or throws what it threw; records
/// an issue unless the library's own JSON reader (`reading`, by default `JSONDocumentDecoding`)
/// agrees: both read it, to values `same` finds equal, or both refuse it with the same kind
/// of `DecodingError` at the same coding path, and the same message where the library, not
/// Foundation, wrote it.
func readBothWays<T: Decodable>(
    _ type: T.Type, from data: Data, sourceLocation: SourceLocation = #_sourceLocation,
    reading: (Data) throws -> T = { try JSONDocumentDecoding.decode(T.self, from: [UInt8]($0)) },
    same: (T, T) throws -> Bool
) throws -> T {
    let foundation = Result { try JSONDecoder().decode(T.self, from: data) }
    let own = Result { try reading(data) }
    let text = String(decoding: data.prefix(2_000), as: UTF8.self)
    switch (foundation, own) {
    case let (.success(expected), .success(read)):
        #expect((try? same(expected, read)) == true, "the library's JSON reader read otherwise: \(text)", sourceLocation: sourceLocation)
    case let (.failure(expected), .failure(read)):
        if case let .dataCorrupted(context)? = read as? DecodingError, context.underlyingError is JSONSyntaxError {
            // Not JSON: the reader checks every string and number as it parses, where
            // JSONDecoder checks each where it is decoded, so it refuses the same text later,
            // with whatever error decoding met first.
        } else if let expected = expected as? DecodingError, let read = read as? DecodingError {
            let (expectedKind, expectedContext) = expected.parts
            let (readKind, readContext) = read.parts
            #expect(expectedKind == readKind, "\(expected)\nthe library's JSON reader: \(read)", sourceLocation: sourceLocation)
            // JSONDecoder says a number that does not fit its type is "not valid JSON", at no
            // path; the reader says which number, and where.
            if !expectedContext.debugDescription.contains("not valid JSON") {
                #expect(
                    expectedContext.codingPath.map(\.stringValue) == readContext.codingPath.map(\.stringValue),
                    "\(expected)\nthe library's JSON reader: \(read)", sourceLocation: sourceLocation
                )
            }
            let foundationWords = [
                "not valid JSON", "Expected to decode", "No value associated", "Cannot get", "Unkeyed container is at end",
                "Parsed JSON number", "is not representable", "found null value", "Invalid URL", "not valid Base64",
            ]
            if !foundationWords.contains(where: expectedContext.debugDescription.contains) {
                #expect(expectedContext.debugDescription == readContext.debugDescription, sourceLocation: sourceLocation)
            }
        } else {
            #expect("\(expected)" == "\(read)", sourceLocation: sourceLocation)
        }
    case let (.success, .failure(error)):
        // The one deliberate difference, as the archive fuzz target allows it: the reader
        // checks every string and number as it parses, where JSONDecoder checks only those it
        // decodes (not those under a key it ignores), so it may refuse more, as not JSON.
        if case let .dataCorrupted(context)? = error as? DecodingError, context.underlyingError is JSONSyntaxError {
            break
        }
        Issue.record("JSONDecoder read it, the library's JSON reader refused it: \(error)\n\(text)", sourceLocation: sourceLocation)
    case let (.failure(error), .success):
        Issue.record("JSONDecoder refused it (\(error)), the library's JSON reader read it\n\(text)", sourceLocation: sourceLocation)
    }
    return try foundation.get()
}

extension DecodingError {
    /// The error's kind, by name, and its context.
    var parts: (kind: String, context: Context) {
        switch self {
        case let .typeMismatch(_, context): ("typeMismatch", context)
        case let .valueNotFound(_, context): ("valueNotFound", context)
        case let .keyNotFound(_, context): ("keyNotFound", context)
        case let .dataCorrupted(context): ("dataCorrupted", context)
        @unknown default: ("unknown", Context(codingPath: [], debugDescription: ""))
        }
    }
}

/// Checks that `reversion`, made from `a` to `b`, read back from its JSON behaves exactly like
/// it: reverts `b` to `a` and, inverted, `a` to `b`; reports the same key paths; refuses each
/// of `wrong` exactly when the original does, leaving it unchanged; and writes the same JSON.
func expectSavedExactly<Root: Codable & Equatable>(
    _ reversion: Reversion<Root>,
    from a: Root,
    to b: Root,
    wrong: [Root] = [],
    seed: UInt64 = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let data = try encoded(reversion)
    let copy: Reversion<Root> = try decoded(data)
    #expect(try encoded(copy) == data, "written again differently, seed \(seed)", sourceLocation: sourceLocation)
    // A change made through a computed key path reads back as its type's whole value, so it
    // reports that value's location, a prefix of the computed one.
    let original = reversion.changedKeyPaths.map { "\($0)" }
    for path in copy.changedKeyPaths.map({ "\($0)" }) {
        #expect(original.contains { $0 == path || $0.hasPrefix(path + ".") }, "\(path) not written by the original, seed \(seed)", sourceLocation: sourceLocation)
    }

    var value = b
    #expect(throws: Never.self, "undo, seed \(seed)", sourceLocation: sourceLocation) { try copy.revert(&value) }
    #expect(value == a, "undo, seed \(seed)", sourceLocation: sourceLocation)
    #expect(throws: Never.self, "redo, seed \(seed)", sourceLocation: sourceLocation) { try copy.inverted.revert(&value) }
    #expect(value == b, "redo, seed \(seed)", sourceLocation: sourceLocation)

    // An inverted reversion is saved as one.
    let invertedCopy: Reversion<Root> = try decoded(try encoded(reversion.inverted))
    var other = a
    #expect(throws: Never.self, "inverted, seed \(seed)", sourceLocation: sourceLocation) { try invertedCopy.revert(&other) }
    #expect(other == b, "inverted, seed \(seed)", sourceLocation: sourceLocation)

    for candidate in wrong + [a] {
        for (original, saved) in [(reversion, copy), (reversion.inverted, copy.inverted)] {
            var expected = candidate
            let originalError = Result { () throws(ReversionError) in try original.revert(&expected) }.error
            var actual = candidate
            let savedError = Result { () throws(ReversionError) in try saved.revert(&actual) }.error
            #expect(savedError == originalError, "refusal differs, seed \(seed)", sourceLocation: sourceLocation)
            #expect(actual == expected, "result differs, seed \(seed)", sourceLocation: sourceLocation)
        }
    }
}

extension Result {
    var error: Failure? {
        if case let .failure(error) = self { error } else { nil }
    }
}

/// The description of the error `body` throws, or `nil`.
func errorDescription(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as DecodingError {
        return "\(error)"
    } catch let error as EncodingError {
        return "\(error)"
    } catch {
        return "\(error)"
    }
}

// MARK: - Models with a property of every kind, all stored

struct Memo: Versionable, Codable, Hashable, Sendable {
    var title: String
    var count: Int
    var flag: Bool?

    func addReversions(into reverter: inout some Reverter<Memo>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.count)
        reverter.appendReversion(at: \.flag)
    }
}

struct Doc: Versionable, Codable, Sendable {
    var title = ""
    var count = 0
    var note = Memo(title: "", count: 0)
    var maybe: Memo?
    var tags: Set<String> = []
    var table: [String: Memo] = [:]
    var counts: [String: Int] = [:]
    var scores: [Int] = []
    var blob = Data()
    var items: [Item] = []
    var rows = TreeArray<Row>()
    var sticky = Sticky()

    func addReversions(into reverter: inout some Reverter<Doc>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.count)
        reverter.appendReversion(at: \.note)
        reverter.appendReversion(at: \.maybe)
        reverter.appendReversion(at: \.tags)
        reverter.appendReversion(at: \.table)
        reverter.appendReversion(at: \.counts)
        reverter.appendReversion(at: \.scores)
        reverter.appendReversion(at: \.blob)
        reverter.appendReversion(at: \.items)
        reverter.appendReversion(at: \.rows)
        reverter.appendReversion(at: \.sticky)
    }
}

/// Ignores `hover` and leaves `loose` unregistered: a change to `loose` is saved whole.
struct Sticky: Versionable, Codable, Hashable, Sendable {
    var text = ""
    var loose = 0
    var hover = 0

    func addReversions(into reverter: inout some Reverter<Sticky>) {
        reverter.appendReversion(at: \.text)
        reverter.ignore(\.hover)
    }
}

/// A generic type and a nested one: their printed names are `Box<Int>` and `Inner`.
struct Box<Value: Codable & Hashable & Sendable>: Versionable, Codable, Hashable, Sendable {
    struct Inner: Versionable, Codable, Hashable, Sendable {
        var label: String
        var size: Int

        func addReversions(into reverter: inout some Reverter<Inner>) {
            reverter.appendReversion(at: \.label)
            reverter.appendReversion(at: \.size)
        }
    }

    var value: Value
    var inner: Inner

    func addReversions(into reverter: inout some Reverter<Box>) {
        reverter.appendReversion(at: \.value)
        reverter.appendReversion(at: \.inner)
    }
}

/// A list whose items a saved reversion edits, large enough to show what is not written.
struct ItemList: Versionable, Codable, Hashable, Sendable {
    var items: [Item]

    func addReversions(into reverter: inout some Reverter<ItemList>) {
        reverter.appendReversion(at: \.items)
    }
}

struct ItemTree: Versionable, Codable, Sendable {
    var items: TreeArray<Item>

    static func == (lhs: ItemTree, rhs: ItemTree) -> Bool { lhs.items.elementsEqual(rhs.items) }
    func hash(into hasher: inout Hasher) { hasher.combine(items.count) }

    func addReversions(into reverter: inout some Reverter<ItemTree>) {
        reverter.appendReversion(at: \.items)
    }
}

/// Two versions of an app's type, printed with the same name: the second gained a property.
enum V1 {
    struct Todo: Versionable, Codable, Hashable {
        var title: String
        var done: Bool

        func addReversions(into reverter: inout some Reverter<Todo>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.done)
        }
    }
}

enum V2 {
    struct Todo: Versionable, Codable, Hashable {
        var title: String
        var done: Bool
        var priority: Int

        func addReversions(into reverter: inout some Reverter<Todo>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.done)
            reverter.appendReversion(at: \.priority)
        }
    }
}

/// A later version that dropped `title`.
enum V3 {
    struct Todo: Versionable, Codable, Hashable {
        var done: Bool

        func addReversions(into reverter: inout some Reverter<Todo>) {
            reverter.appendReversion(at: \.done)
        }
    }
}

/// A later version whose `title` became a number.
enum V4 {
    struct Todo: Versionable, Codable, Hashable {
        var title: Int
        var done: Bool

        func addReversions(into reverter: inout some Reverter<Todo>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.done)
        }
    }
}

/// A history of random edits, undos, redos, tags, scopes pushed, popped and abandoned,
/// sometimes under a limit, some scopes left open.
func randomBoardHistory(seed: UInt64, random: inout SeededGenerator) -> VersioningController<Board, Board, HistoryError> {
    var factory = BoardFactory(seed: seed)
    var board = factory.board()
    let limit: Int? = Bool.random(using: &random) ? nil : Int.random(in: 2...6, using: &random)
    let controller = VersioningController(board, historyLimit: limit)
    for index in 0..<Int.random(in: 4...24, using: &random) {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: board = (try? controller.undo()) ?? board
        case 1: board = (try? controller.redo()) ?? board
        case 2: controller.tag("t\(index)")
        case 3 where controller.scopeLevel < 3: controller.pushNewScope()
        case 4 where controller.scopeLevel > 0:
            try? controller.popCurrentScope()
            board = controller.currentVersion
        case 5 where controller.scopeLevel > 0:
            board = (try? controller.undoAndPopCurrentScope()) ?? controller.currentVersion
        default:
            board = factory.edit(board)
            controller.append(board)
        }
    }
    return controller
}

/// One to three bytes changed, inserted or removed.
func damageJSON(_ bytes: [UInt8], random: inout SeededGenerator) -> [UInt8] {
    var damaged = bytes
    // Bytes a JSON edit would plausibly bring: digits, letters, quotes, brackets.
    let alphabet = Array(#"0123456789abcdefnrtuvxyz"{}[]:,.-\ "#.utf8)
    for _ in 0..<Int.random(in: 1...3, using: &random) where !damaged.isEmpty {
        let at = Int.random(in: 0..<damaged.count, using: &random)
        let byte = Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: damaged[at] = byte
        case 1: damaged.insert(byte, at: at)
        default: damaged.remove(at: at)
        }
    }
    return damaged
}
