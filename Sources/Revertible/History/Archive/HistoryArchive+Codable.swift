/// The saved form, in short keys because a store writes one step per change:
///
/// ```text
/// archive  {"format": 1, "outline": outline, "steps": [step]}
/// step     {"v": 7, "parent": 6, "scope": 0, "label": "Add milk" | null, "time": ns, "count": 1, "change": reversion,
///           "author": "ana" | 3, "undoes": 5, "redoes": 6, "superseded": true, "sum": "89ab…"}
///           ("author" only for a step with an author; "undoes"/"redoes" only for a step made by
///           `undo(by:)`/`redo(by:)`, naming the step it reverted; "superseded" only when true)
/// outline  {"next": 8, "scopes": [scope], "tags": [{"tag": "v1.0" | 3, "v": 7}], "count": 1}
/// scope    {"floor": 0, "depth": 0, "time": ns, "current": 7, "start": start | null, "branches": [[parent, child, ...]],
///           "moved": [{"tag": "v1.0" | 3, "v": 5}]}    ("moved" only when the scope moved a tag)
/// start    {"v": 2, "change": reversion | null, "label": null, "count": 3, "time": ns, "author": "ana"}
///           ("author" only when the dropped steps share one)
/// ```
///
/// Versions are their numbers, times whole nanoseconds (see ``HistoryStep/time``), and a
/// reversion is `Reversion`'s own coding. A step's `sum` is the checksum of the rest of it
/// (16 hexadecimal digits, see `HistoryArchiveChecksum`), and the outline's `count` the number
/// of steps: both catch damage that a decoder accepts and that no check of the chain can see
/// (an old value that is written, never checked). Archives saved before they were written have
/// neither, and load without those two checks. A step's sum is compared with its content
/// where a history first reads the step, not when the step is decoded. A branch list names the branches of one version,
/// the one redo follows last; a version with one branch has none. A scope's `moved` list names
/// the tags it moved and the versions they named before, given back when it is abandoned.
extension HistoryArchive: Codable where Value: Codable {

    /// The format written; a newer one is refused rather than misread.
    static var format: Int { 1 }

    typealias Keys = ArchiveCodingKey

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let format = try container.decode(Int.self, forKey: .format)
        if let problem = Self.formatProblem(format) {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container, debugDescription: problem)
        }
        self.init(
            outline: try container.decode(Outline.self, forKey: .outline),
            steps: try container.decode([Step].self, forKey: .steps)
        )
    }

    /// What is wrong with a saved format number, or `nil`: both readers' check.
    static func formatProblem(_ format: Int) -> String? {
        format <= Self.format ? nil : "history format \(format) is newer than this program's (\(Self.format))"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(outline, forKey: .outline)
        try container.encode(steps, forKey: .steps)
    }
}

extension HistoryArchive.Step: Codable where Value: Codable {

    typealias Keys = ArchiveStepCodingKey

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            version: HistoryVersion(try container.decode(UInt64.self, forKey: .v)),
            parent: HistoryVersion(try container.decode(UInt64.self, forKey: .parent)),
            scopeLevel: try container.decode(Int.self, forKey: .scope),
            label: try container.decodeIfPresent(String.self, forKey: .label),
            time: .nanoseconds(try container.decode(Int64.self, forKey: .time)),
            changeCount: try container.decode(Int.self, forKey: .count),
            reversion: try container.decode(Reversion<Value>.self, forKey: .change),
            authorship: try Self.decodeAuthorship(from: container),
            depth: try container.decodeIfPresent(Int.self, forKey: .depth)
        )
        // Kept, not compared: computing the sum encodes the step a second time, which cost
        // loading a long archive about as much as decoding it. The history that reads the
        // step compares it, once (see `matchesSavedChecksum`).
        if let saved = try container.decodeIfPresent(String.self, forKey: .sum) {
            savedChecksum = HistoryArchive.SavedChecksum(savedText: saved)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try encodeContent(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(String(try checksum(), radix: 16), forKey: .sum)
        // Outside the checksum, so archives saved before depths were kept keep their sums; a
        // wrong depth is found where the step is read, one below its parent or it is refused.
        if depthIsSaved {
            try container.encode(recorded.depth, forKey: .depth)
        }
    }

    /// The checksum of everything the step saves but the checksum itself.
    func checksum() throws -> UInt64 {
        try HistoryArchiveChecksum.of(Content(step: self))
    }

    /// ``checksum()``, for a history that cannot name `Codable` (see ``ChecksummedArchiveStep``).
    var contentChecksum: UInt64? { try? checksum() }

    /// The step without its checksum, which is what the checksum covers.
    private struct Content: Encodable {
        let step: HistoryArchive.Step

        func encode(to encoder: any Encoder) throws {
            try step.encodeContent(to: encoder)
        }
    }

    private func encodeContent(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(version.rawValue, forKey: .v)
        try container.encode(parent.rawValue, forKey: .parent)
        try container.encode(scopeLevel, forKey: .scope)
        try container.encode(label, forKey: .label)
        try container.encode(time.wholeNanoseconds, forKey: .time)
        try container.encode(changeCount, forKey: .count)
        try container.encode(reversion, forKey: .change)
        // Only when there is something to say, so a step without author saves, and sums, exactly
        // as before authors existed, and archives saved then keep their checksums.
        guard let authorship else { return }
        try container.encode(authorship.author, forKey: .author)
        switch authorship.move {
        case let .undo(version): try container.encode(version.rawValue, forKey: .undoes)
        case let .redo(version): try container.encode(version.rawValue, forKey: .redoes)
        case nil: break
        }
        if authorship.isSuperseded {
            try container.encode(true, forKey: .superseded)
        }
    }

    private static func decodeAuthorship(from container: KeyedDecodingContainer<Keys>) throws -> StepAuthorship? {
        let undoes = try container.decodeIfPresent(UInt64.self, forKey: .undoes)
        let redoes = try container.decodeIfPresent(UInt64.self, forKey: .redoes)
        let isSuperseded = try container.decodeIfPresent(Bool.self, forKey: .superseded) ?? false
        let author = try container.decodeIfPresent(HistoryAuthor.self, forKey: .author)
        do {
            return try authorship(author: author, undoes: undoes, redoes: redoes, isSuperseded: isSuperseded)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: error.key, in: container, debugDescription: error.message)
        }
    }

    /// The step's authorship from its saved fields, checked: both readers' check. Read in
    /// this order (`undoes`, `redoes`, `superseded`, `author`), so both meet a damaged field
    /// first in the same place.
    static func authorship(
        author: HistoryAuthor?, undoes: UInt64?, redoes: UInt64?, isSuperseded: Bool
    ) throws(ArchiveFieldProblem<Keys>) -> StepAuthorship? {
        guard let author else {
            guard undoes == nil, redoes == nil, !isSuperseded else {
                throw ArchiveFieldProblem(.author, "a step made by an author's undo or redo names no author")
            }
            return nil
        }
        guard undoes == nil || redoes == nil else {
            throw ArchiveFieldProblem(.redoes, "a step both undoes and redoes a step")
        }
        let move: AuthorMove? = if let undoes { .undo(HistoryVersion(undoes)) } else { redoes.map { .redo(HistoryVersion($0)) } }
        return StepAuthorship(author: author, move: move, isSuperseded: isSuperseded)
    }
}

// The keys of the archive's own shapes: top-level, not nested in the generic archive, so that
// they are the same type for every `Value` (a nested type's metadata depends on `Value`, and
// code reading it is specialized for no `Value`).

/// The keys of an archive.
enum ArchiveCodingKey: String, CodingKey { case format, outline, steps }
/// The keys of a step.
enum ArchiveStepCodingKey: String, CodingKey { case v, parent, scope, label, time, count, change, sum, depth, author, undoes, redoes, superseded }
/// The keys of an outline.
enum ArchiveOutlineCodingKey: String, CodingKey { case next, scopes, tags, count, absorbed, newest }
/// The keys of one of an outline's scopes.
enum ArchiveScopeCodingKey: String, CodingKey { case floor, depth, time, current, start, branches, moved, steps }
/// The keys of a scope's dropped start.
enum ArchiveStartCodingKey: String, CodingKey { case v, change, label, count, time, author }
/// The keys of a tag and the version it names.
enum ArchiveTagCodingKey: String, CodingKey { case tag, v }

/// What is wrong with one of the archive's own fields, found by a check both readers share
/// (`Decodable` and the JSON reader): each turns it into its `DecodingError` at `key`.
struct ArchiveFieldProblem<Key: CodingKey>: Error {
    /// The field the problem is reported at.
    let key: Key
    /// What is wrong, in the words of the error.
    let message: String

    init(_ key: Key, _ message: String) {
        self.key = key
        self.message = message
    }
}

extension ArchiveSavedChecksum {

    /// What a saved `sum` says: 16 hexadecimal digits, or (anything else) an unreadable sum.
    init(savedText text: String) {
        self = hexadecimalNumber(text).map(Self.saved) ?? .unreadable
    }
}

/// A step whose content can be summed: a step of a `Codable` value, the only kind that is
/// decoded with a saved sum. A history is generic over any value, so it reaches the sum
/// through this protocol, by a cast, rather than by a constraint it cannot state.
protocol ChecksummedArchiveStep {
    /// The checksum of the step's content, as `encode(to:)` saves it; `nil` if the content
    /// cannot be encoded.
    var contentChecksum: UInt64? { get }
}

extension HistoryArchive.Step: ChecksummedArchiveStep where Value: Codable {}

extension HistoryArchive.Step {

    /// Whether the step matches the checksum it was decoded with: `true` when none was
    /// saved, `false` when the saved one is unreadable or differs from the content's.
    ///
    /// Computed on each call, by encoding the step's content (as costly as encoding the
    /// step): ``HistoryStepSource`` calls it once per step it reads, and keeps the answer.
    var matchesSavedChecksum: Bool {
        switch savedChecksum {
        case .notSaved: true
        case .unreadable: false
        case let .saved(sum): (self as? any ChecksummedArchiveStep)?.contentChecksum == sum
        }
    }
}

extension HistoryArchive.Outline: Codable where Value: Codable {

    typealias Keys = ArchiveOutlineCodingKey
    typealias ScopeKeys = ArchiveScopeCodingKey
    typealias StartKeys = ArchiveStartCodingKey
    typealias TagKeys = ArchiveTagCodingKey

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        var scopes: [Scope] = []
        var scopeList = try container.nestedUnkeyedContainer(forKey: .scopes)
        while !scopeList.isAtEnd {
            let scope = try scopeList.nestedContainer(keyedBy: ScopeKeys.self)
            var start: Start?
            if try scope.contains(.start) && !scope.decodeNil(forKey: .start) {
                let saved = try scope.nestedContainer(keyedBy: StartKeys.self, forKey: .start)
                start = Start(
                    version: HistoryVersion(try saved.decode(UInt64.self, forKey: .v)),
                    reversion: try saved.decodeIfPresent(Reversion<Value>.self, forKey: .change),
                    annotation: SavedLabel(savedLabel: try saved.decodeIfPresent(String.self, forKey: .label)),
                    changeCount: try saved.decode(Int.self, forKey: .count),
                    time: .nanoseconds(try saved.decode(Int64.self, forKey: .time)),
                    author: try saved.decodeIfPresent(HistoryAuthor.self, forKey: .author)
                )
            }
            let branches = try scope.decode([[UInt64]].self, forKey: .branches).map { list in
                guard let branch = Self.branchOrder(list) else {
                    throw DecodingError.dataCorruptedError(forKey: .branches, in: scope, debugDescription: Self.branchListProblem)
                }
                return branch
            }
            var moved: [(tag: HistoryTag, version: HistoryVersion)] = []
            if scope.contains(.moved) {
                var movedList = try scope.nestedUnkeyedContainer(forKey: .moved)
                while !movedList.isAtEnd {
                    let entry = try movedList.nestedContainer(keyedBy: TagKeys.self)
                    moved.append((try entry.decode(HistoryTag.self, forKey: .tag), HistoryVersion(try entry.decode(UInt64.self, forKey: .v))))
                }
            }
            scopes.append(Scope(
                floor: HistoryVersion(try scope.decode(UInt64.self, forKey: .floor)),
                floorDepth: try scope.decode(Int.self, forKey: .depth),
                floorTime: .nanoseconds(try scope.decode(Int64.self, forKey: .time)),
                current: HistoryVersion(try scope.decode(UInt64.self, forKey: .current)),
                start: start,
                branchOrder: branches,
                movedTags: moved,
                stepCount: try scope.decodeIfPresent(Int.self, forKey: .steps)
            ))
        }
        var tags: [(tag: HistoryTag, version: HistoryVersion)] = []
        var tagList = try container.nestedUnkeyedContainer(forKey: .tags)
        while !tagList.isAtEnd {
            let entry = try tagList.nestedContainer(keyedBy: TagKeys.self)
            tags.append((try entry.decode(HistoryTag.self, forKey: .tag), HistoryVersion(try entry.decode(UInt64.self, forKey: .v))))
        }
        self.init(
            nextVersion: HistoryVersion(try container.decode(UInt64.self, forKey: .next)),
            scopes: scopes,
            tags: tags,
            stepCount: try container.decodeIfPresent(Int.self, forKey: .count),
            absorbedWrites: try container.decodeIfPresent(Bool.self, forKey: .absorbed) ?? false,
            newestTime: try container.decodeIfPresent(Int64.self, forKey: .newest).map(Duration.nanoseconds)
        )
    }

    /// A saved branch list read as a version and its branches, or `nil` when it names fewer
    /// than two branches (see ``branchListProblem``): both readers' check.
    static func branchOrder(_ list: [UInt64]) -> (parent: HistoryVersion, children: [HistoryVersion])? {
        guard let parent = list.first, list.count > 2 else { return nil }
        return (parent: HistoryVersion(parent), children: list.dropFirst().map(HistoryVersion.init))
    }

    /// Why a branch list ``branchOrder(_:)`` refuses is refused.
    static var branchListProblem: String { "a branch list names a version and at least two branches" }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(nextVersion.rawValue, forKey: .next)
        var scopeList = container.nestedUnkeyedContainer(forKey: .scopes)
        for saved in scopes {
            var scope = scopeList.nestedContainer(keyedBy: ScopeKeys.self)
            try scope.encode(saved.floor.rawValue, forKey: .floor)
            try scope.encode(saved.floorDepth, forKey: .depth)
            try scope.encode(saved.floorTime.wholeNanoseconds, forKey: .time)
            try scope.encode(saved.current.rawValue, forKey: .current)
            if let start = saved.start {
                var entry = scope.nestedContainer(keyedBy: StartKeys.self, forKey: .start)
                try entry.encode(start.version.rawValue, forKey: .v)
                try entry.encode(start.reversion, forKey: .change)
                try entry.encode(start.annotation.label, forKey: .label)
                try entry.encode(start.changeCount, forKey: .count)
                try entry.encode(start.time.wholeNanoseconds, forKey: .time)
                try entry.encodeIfPresent(start.author, forKey: .author)
            } else {
                try scope.encodeNil(forKey: .start)
            }
            try scope.encode(saved.branchOrder.map { [$0.parent.rawValue] + $0.children.map(\.rawValue) }, forKey: .branches)
            if !saved.movedTags.isEmpty {
                var movedList = scope.nestedUnkeyedContainer(forKey: .moved)
                for (tag, version) in saved.movedTags {
                    var entry = movedList.nestedContainer(keyedBy: TagKeys.self)
                    try entry.encode(tag, forKey: .tag)
                    try entry.encode(version.rawValue, forKey: .v)
                }
            }
            try scope.encodeIfPresent(saved.stepCount, forKey: .steps)
        }
        var tagList = container.nestedUnkeyedContainer(forKey: .tags)
        for (tag, version) in tags {
            var entry = tagList.nestedContainer(keyedBy: TagKeys.self)
            try entry.encode(tag, forKey: .tag)
            try entry.encode(version.rawValue, forKey: .v)
        }
        try container.encodeIfPresent(stepCount, forKey: .count)
        try container.encodeIfPresent(newestTime?.wholeNanoseconds, forKey: .newest)
        // Written only when true, so a history nobody else wrote saves as it always did.
        if absorbedWrites {
            try container.encode(true, forKey: .absorbed)
        }
    }
}

extension Duration {

    /// The duration in whole nanoseconds, clamped to what an `Int64` holds.
    @usableFromInline
    var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, overflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowed ? (seconds < 0 ? .min : .max) : total
    }
}
