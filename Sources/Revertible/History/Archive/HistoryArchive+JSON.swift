import Foundation

extension HistoryArchive where Value: Codable {

    /// Reads an archive saved as JSON (by `JSONEncoder`, with its default options): the same
    /// archive `JSONDecoder().decode(HistoryArchive<Value>.self, from: json)` reads, and the
    /// same errors for one it refuses, read many times faster.
    ///
    /// The JSON is parsed once, by a reader of the library's own. The archive's own shapes
    /// (its outline, each step's record, each reversion and the changes in it) are read
    /// straight from the parsed text, with the same checks as their `Decodable` conformances
    /// (the checks are shared); `Value` and the values inside the changes through their
    /// `Decodable` conformances, except `String`, `Int`, `Double`, `Bool` and `UUID` values,
    /// read directly to the same values. Read as `JSONDecoder` reads with its default options: `Data` as
    /// Base64, `URL` as a string, dates by `Date`'s own coding.
    ///
    /// ```swift
    /// let saved = try JSONEncoder().encode(notes.archive)
    /// try reopened.restoreHistory(from: HistoryArchive(json: saved))
    /// ```
    ///
    /// - Throws: `DecodingError`, as `JSONDecoder` does: `dataCorrupted` when `json` is not
    ///   JSON (its underlying error names the byte), and what decoding the archive throws.
    public init(json: Data) throws {
        let document = try JSONDocumentDecoding.document(from: [UInt8](json))
        try self.init(reading: JSONObjectReader(document, at: 0, path: nil))
    }

    /// Reads the archive as ``init(from:)`` reads it: the same fields, in the same order,
    /// with the same checks and errors.
    init(reading archive: JSONObjectReader<Keys>) throws {
        let format = try archive.integer(Int.self, .format)
        if let problem = Self.formatProblem(format) {
            throw archive.corrupted(problem, at: .format)
        }
        let outline = try Outline(reading: archive.object(.outline, keyedBy: Outline.Keys.self))
        var list = try archive.array(.steps)
        var steps: [Step] = []
        steps.reserveCapacity(list.count)
        while !list.isAtEnd {
            steps.append(try Step(reading: list.nextObject(keyedBy: Step.Keys.self)))
        }
        self.init(outline: outline, steps: steps)
    }
}

extension HistoryArchive.Step where Value: Codable {

    /// Reads one step saved as JSON (by `JSONEncoder`, as a store writes each step): the same
    /// step `JSONDecoder().decode(HistoryArchive<Value>.Step.self, from: json)` reads, and the
    /// same errors for one it refuses, read as ``HistoryArchive/init(json:)`` reads each step.
    ///
    /// ```swift
    /// let row = try JSONEncoder().encode(notes.archive.steps[0])
    /// let step = try HistoryArchive<String>.Step(json: row)
    /// ```
    ///
    /// - Throws: `DecodingError`, as `JSONDecoder` does: `dataCorrupted` when `json` is not
    ///   JSON (its underlying error names the byte), and what decoding the step throws.
    public init(json: Data) throws {
        let document = try JSONDocumentDecoding.document(from: [UInt8](json))
        try self.init(reading: JSONObjectReader(document, at: 0, path: nil))
    }

    /// Reads the step as ``init(from:)`` reads it: the same fields, in the same order, with
    /// the same checks and errors.
    init(reading step: JSONObjectReader<Keys>) throws {
        self.init(
            version: HistoryVersion(try step.integer(UInt64.self, .v)),
            parent: HistoryVersion(try step.integer(UInt64.self, .parent)),
            scopeLevel: try step.integer(Int.self, .scope),
            label: try step.stringIfPresent(.label),
            time: .nanoseconds(try step.integer(Int64.self, .time)),
            changeCount: try step.integer(Int.self, .count),
            reversion: try Reversion(reading: step.object(.change, keyedBy: ReversionCodingKey.self)),
            authorship: try Self.readAuthorship(step),
            depth: try step.integerIfPresent(Int.self, .depth)
        )
        if let saved = try step.stringIfPresent(.sum) {
            savedChecksum = HistoryArchive.SavedChecksum(savedText: saved)
        }
    }

    private static func readAuthorship(_ step: JSONObjectReader<Keys>) throws -> StepAuthorship? {
        let undoes = try step.integerIfPresent(UInt64.self, .undoes)
        let redoes = try step.integerIfPresent(UInt64.self, .redoes)
        let isSuperseded = try step.boolIfPresent(.superseded) ?? false
        let author = try step.decodeIfPresent(HistoryAuthor.self, .author)
        do {
            return try authorship(author: author, undoes: undoes, redoes: redoes, isSuperseded: isSuperseded)
        } catch {
            throw step.corrupted(error.message, at: error.key)
        }
    }
}

extension HistoryArchive.Outline where Value: Codable {

    /// Reads an outline saved as JSON (by `JSONEncoder`, as a store writes it after each
    /// change): the same outline `JSONDecoder().decode(HistoryArchive<Value>.Outline.self,
    /// from: json)` reads, and the same errors for one it refuses, read as
    /// ``HistoryArchive/init(json:)`` reads it.
    ///
    /// ```swift
    /// let saved = try JSONEncoder().encode(notes.archive.outline)
    /// let outline = try HistoryArchive<String>.Outline(json: saved)
    /// ```
    ///
    /// - Throws: `DecodingError`, as `JSONDecoder` does: `dataCorrupted` when `json` is not
    ///   JSON (its underlying error names the byte), and what decoding the outline throws.
    public init(json: Data) throws {
        let document = try JSONDocumentDecoding.document(from: [UInt8](json))
        try self.init(reading: JSONObjectReader(document, at: 0, path: nil))
    }

    /// Reads the outline as ``init(from:)`` reads it: the same fields, in the same order,
    /// with the same checks and errors.
    init(reading outline: JSONObjectReader<Keys>) throws {
        var scopes: [Scope] = []
        var scopeList = try outline.array(.scopes)
        while !scopeList.isAtEnd {
            let scope = try scopeList.nextObject(keyedBy: ScopeKeys.self)
            var start: Start?
            if let saved = try scope.objectIfPresent(.start, keyedBy: StartKeys.self) {
                start = Start(
                    version: HistoryVersion(try saved.integer(UInt64.self, .v)),
                    reversion: try saved.objectIfPresent(.change, keyedBy: ReversionCodingKey.self).map { try Reversion(reading: $0) },
                    annotation: SavedLabel(savedLabel: try saved.stringIfPresent(.label)),
                    changeCount: try saved.integer(Int.self, .count),
                    time: .nanoseconds(try saved.integer(Int64.self, .time)),
                    author: try saved.decodeIfPresent(HistoryAuthor.self, .author)
                )
            }
            let branches = try scope.decode([[UInt64]].self, .branches).map { list in
                guard let branch = Self.branchOrder(list) else {
                    throw scope.corrupted(Self.branchListProblem, at: .branches)
                }
                return branch
            }
            var moved: [(tag: HistoryTag, version: HistoryVersion)] = []
            if scope.contains(.moved) {
                var movedList = try scope.array(.moved)
                while !movedList.isAtEnd {
                    let entry = try movedList.nextObject(keyedBy: TagKeys.self)
                    moved.append((try entry.decode(HistoryTag.self, .tag), HistoryVersion(try entry.integer(UInt64.self, .v))))
                }
            }
            scopes.append(Scope(
                floor: HistoryVersion(try scope.integer(UInt64.self, .floor)),
                floorDepth: try scope.integer(Int.self, .depth),
                floorTime: .nanoseconds(try scope.integer(Int64.self, .time)),
                current: HistoryVersion(try scope.integer(UInt64.self, .current)),
                start: start,
                branchOrder: branches,
                movedTags: moved,
                stepCount: try scope.integerIfPresent(Int.self, .steps)
            ))
        }
        var tags: [(tag: HistoryTag, version: HistoryVersion)] = []
        var tagList = try outline.array(.tags)
        while !tagList.isAtEnd {
            let entry = try tagList.nextObject(keyedBy: TagKeys.self)
            tags.append((try entry.decode(HistoryTag.self, .tag), HistoryVersion(try entry.integer(UInt64.self, .v))))
        }
        self.init(
            nextVersion: HistoryVersion(try outline.integer(UInt64.self, .next)),
            scopes: scopes,
            tags: tags,
            stepCount: try outline.integerIfPresent(Int.self, .count),
            absorbedWrites: try outline.boolIfPresent(.absorbed) ?? false,
            newestTime: try outline.integerIfPresent(Int64.self, .newest).map(Duration.nanoseconds)
        )
    }
}

extension JSONDocumentDecoding {

    /// The archive under `key` in the object `bytes` holds, read as ``HistoryArchive/init(json:)``
    /// reads a whole archive (straight from the parsed text, not through `Decoder`): for the
    /// fuzz target, which reads a saved `UndoableState` (the present and the history) with
    /// both readers.
    ///
    /// - Throws: What `HistoryArchive(json:)` throws, at coding paths that start with `key`.
    package static func decodeArchive<Value: Codable>(
        _ type: HistoryArchive<Value>.Type, underKey key: String, from bytes: [UInt8]
    ) throws -> HistoryArchive<Value> {
        let document = try Self.document(from: bytes)
        let object = try JSONObjectReader<JSONMemberKey>(document, at: 0, path: nil)
        let member = JSONMemberKey(key)
        return try HistoryArchive(reading: JSONObjectReader(document, at: object.required(member), path: object.link(member)))
    }
}

/// A key named at run time.
struct JSONMemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
