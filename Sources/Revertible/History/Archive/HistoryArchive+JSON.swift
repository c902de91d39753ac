import Foundation

extension HistoryArchive where Value: Codable {

    /// Reads an archive saved as JSON (by `JSONEncoder`, with its default options): the same
    /// archive `JSONDecoder().decode(HistoryArchive<Value>.self, from: json)` reads, and the
    /// same errors for one it refuses, read many times faster.
    ///
    /// The JSON is parsed once, by a reader of the library's own, and decoded through the same
    /// `Decodable` conformances (the archive's, `Value`'s and its properties'), so every check
    /// of a decoded archive and of its steps is the same. Read as `JSONDecoder` reads with its
    /// default options: `Data` as Base64, `URL` as a string, dates by `Date`'s own coding.
    ///
    /// ```swift
    /// let saved = try JSONEncoder().encode(notes.archive)
    /// try reopened.restoreHistory(from: HistoryArchive(json: saved))
    /// ```
    ///
    /// - Throws: `DecodingError`, as `JSONDecoder` does: `dataCorrupted` when `json` is not
    ///   JSON (its underlying error names the byte), and what decoding the archive throws.
    public init(json: Data) throws {
        self = try JSONDocumentDecoding.decode(HistoryArchive.self, from: [UInt8](json))
    }
}
