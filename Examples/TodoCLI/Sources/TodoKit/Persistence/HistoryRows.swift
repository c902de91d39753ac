import Foundation
import Revertible
import UndoableReducer

/// The history's rows, a ``HistoryStepStore`` over the file: the `steps` table, one row per
/// kept step holding the step's JSON (its parent, label, time, depth and reversion: the
/// change itself, saved exactly, never the action that made it) with its parent and scope in
/// columns of their own, and the outline in `meta` (scopes, current version, tags: small).
///
/// A command reads the outline and the steps it crosses, one row each: `add` reads the step
/// undo would take, `undo` that one and the one before, whatever the history's length. After
/// a command, only what changed is written: the new steps, the deletions of the steps the
/// history limit dropped, and the outline if it differs from the saved one.
///
/// `@unchecked Sendable`: the protocol asks for it because a history may cross threads, but
/// a `todo` command runs on one thread from its first read to its last write, and these rows
/// are made per transaction and never handed to another.
final class HistoryRows: HistoryStepStore, @unchecked Sendable {
    typealias Value = TodoList

    private let database: Database
    /// The outline's bytes as saved, so an unchanged outline is not rewritten.
    private var savedOutline: Data?

    private init(database: Database, outline: Data?) {
        self.database = database
        savedOutline = outline
    }

    /// An encoder whose output is a function of the value: the same outline, the same bytes.
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The history's rows in `database`, its outline read.
    static func open(in database: Database) throws(DataFileProblem) -> HistoryRows {
        try reading { () throws -> HistoryRows in
            let query = try database.statement("SELECT value FROM meta WHERE key = 'outline'")
            try query.bind()
            defer { _ = try? query.bind() }
            guard try query.step(), let bytes = query.blob(0) else {
                // No history saved; steps without an outline would be damage.
                guard try database.integer("SELECT EXISTS (SELECT 1 FROM steps)") == 0 else {
                    throw DataFileProblem.damaged("history steps without an outline")
                }
                return HistoryRows(database: database, outline: nil)
            }
            return HistoryRows(database: database, outline: bytes)
        }
    }

    /// The undoable state made of `present` and this history, checked by the library where
    /// it reads: the outline and the steps next to the present now (so a damaged history,
    /// or one that does not fit the list, is refused, never half loaded), every other step
    /// when a command first crosses it (a command that cannot read one changes nothing).
    ///
    /// Older steps are not checked against the list: another program may have edited a row
    /// that an older step also changed, which is not damage; a move that reaches such a step
    /// is refused before anything is written (``HistoryMismatch/checkLoadable(_:)``).
    ///
    /// A file of schema version 2 and before (read by a command that does not write, which
    /// does not migrate it) keeps no depth with its steps: its history is read whole.
    func state(present: TodoList) throws(DataFileProblem) -> UndoableState<TodoList> {
        guard savedOutline != nil else { return UndoableState(present) }
        do {
            if try TodoSchema.check(database) < TodoSchema.lazyHistoryVersion {
                return try UndoableState(present: present, archive: wholeArchive(), checkingEveryStep: false)
            }
            return try UndoableState(present: present, store: self)
        } catch {
            throw DataFileProblem(describing: error)
        }
    }

    // MARK: The store the library reads

    func outline() throws -> HistoryArchive<TodoList>.Outline? {
        guard let bytes = savedOutline else { return nil }
        guard JSONNumberCheck.isSound(bytes) else {
            throw HistoryRowDamage("the history's outline holds a number out of range")
        }
        do {
            return try HistoryArchive<TodoList>.Outline(json: bytes)
        } catch {
            throw HistoryRowDamage("the history's outline cannot be decoded")
        }
    }

    func step(leadingTo version: HistoryVersion) throws -> HistoryArchive<TodoList>.Step? {
        let query = try database.statement("SELECT step FROM steps WHERE version = ?")
        try query.bind(.integer(Int64(bitPattern: version.rawValue)))
        defer { _ = try? query.bind() }
        guard try query.step() else { return nil }
        return try Self.decode(query.blob(0), version: Int64(bitPattern: version.rawValue))
    }

    func versions(after parent: HistoryVersion) throws -> [HistoryVersion] {
        try versions("SELECT version FROM steps WHERE parent = ?", Int64(bitPattern: parent.rawValue))
    }

    func versions(inScope level: Int) throws -> [HistoryVersion] {
        try versions("SELECT version FROM steps WHERE scope = ?", Int64(level))
    }

    func write(_ changes: HistoryArchive<TodoList>.Changes) throws {
        try write(encode(changes))
    }

    private func versions(_ sql: String, _ value: Int64) throws -> [HistoryVersion] {
        let query = try database.statement(sql)
        try query.bind(.integer(value))
        defer { _ = try? query.bind() }
        var versions: [HistoryVersion] = []
        while try query.step() {
            versions.append(HistoryVersion(UInt64(bitPattern: query.integer(0))))
        }
        return versions
    }

    /// The step whose JSON is `bytes`, saved as `version`.
    private static func decode(_ bytes: Data?, version: Int64) throws(HistoryRowDamage) -> HistoryArchive<TodoList>.Step {
        if let bytes, !JSONNumberCheck.isSound(bytes) {
            throw HistoryRowDamage("history step \(version) holds a number out of range")
        }
        guard let bytes, let step = try? HistoryArchive<TodoList>.Step(json: bytes) else {
            throw HistoryRowDamage("history step \(version) cannot be decoded")
        }
        return step
    }

    // MARK: Writing

    /// What changed in the history, encoded and ready to write.
    struct Changes {
        /// Versions of the steps to delete (dropped by the limit, or rolled back).
        var removed: [Int64]
        /// New and changed steps: version, parent, scope and JSON.
        var saved: [(version: Int64, parent: Int64, scope: Int64, bytes: Data)]
        /// The new outline's JSON, if it differs from the saved one.
        var outline: Data?

        /// Every JSON document to be written, to check what they mention.
        var documents: [Data] {
            saved.map(\.bytes) + (outline.map { [$0] } ?? [])
        }
    }

    /// Encodes `changes`.
    func encode(_ changes: HistoryArchive<TodoList>.Changes) throws -> Changes {
        let encoder = Self.encoder()
        let outline = try encoder.encode(changes.outline)
        return Changes(
            removed: changes.removedVersions.map { Int64(bitPattern: $0.rawValue) },
            saved: try changes.savedSteps.map {
                (Int64(bitPattern: $0.version.rawValue), Int64(bitPattern: $0.parent.rawValue), Int64($0.scopeLevel), try encoder.encode($0))
            },
            outline: outline == savedOutline ? nil : outline
        )
    }

    /// Writes `changes`, made by ``encode(_:)`` of these rows.
    func write(_ changes: Changes) throws {
        if !changes.removed.isEmpty {
            let delete = try database.statement("DELETE FROM steps WHERE version = ?")
            for version in changes.removed {
                try delete.bind(.integer(version)).run()
            }
        }
        if !changes.saved.isEmpty {
            let save = try database.statement("INSERT OR REPLACE INTO steps (version, parent, scope, step) VALUES (?, ?, ?, ?)")
            for step in changes.saved {
                try save.bind(.integer(step.version), .integer(step.parent), .integer(step.scope), .blob(step.bytes)).run()
            }
        }
        if let outline = changes.outline {
            try database.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('outline', ?)").bind(.blob(outline)).run()
            savedOutline = outline
        }
    }

    /// Writes what `state`'s history changed since it was read from these rows, and makes
    /// `state` read from them from now on.
    func save(_ state: inout UndoableState<TodoList>) throws {
        try write(encode(state.unsavedHistoryChanges))
        state.historyWasSaved(to: self)
    }

    /// Replaces the saved history with `state`'s, every step written: for imports, and for a
    /// file migrated to rows read one at a time.
    @discardableResult
    static func replaceAll(with state: UndoableState<TodoList>, in database: Database) throws -> HistoryRows {
        try database.execute("DELETE FROM steps; DELETE FROM meta WHERE key = 'outline'", operation: "write the history")
        let rows = HistoryRows(database: database, outline: nil)
        var state = state
        try rows.save(&state)
        return rows
    }

    /// Rewrites a history saved by schema version 2 and before (steps without depth or
    /// columns, outline without counts) so that it can be read one step at a time: read
    /// whole once, at `present`, and written again.
    static func migrate(in database: Database, present: TodoList) throws {
        let old = try open(in: database)
        guard old.savedOutline != nil else { return }
        let state = try UndoableState(present: present, archive: old.wholeArchive(), checkingEveryStep: false)
        try replaceAll(with: state, in: database)
    }

    /// Every saved step and the outline, read and decoded at once.
    private func wholeArchive() throws -> HistoryArchive<TodoList> {
        guard let outline = try outline() else { throw DataFileProblem.damaged("the history has no outline") }
        var steps: [HistoryArchive<TodoList>.Step] = []
        let query = try database.statement("SELECT version, step FROM steps ORDER BY version")
        try query.bind()
        defer { _ = try? query.bind() }
        while try query.step() {
            let version = query.integer(0)
            let step = try Self.decode(query.blob(1), version: version)
            guard step.version.rawValue == UInt64(bitPattern: version) else {
                throw DataFileProblem.damaged("history step \(version) cannot be decoded")
            }
            steps.append(step)
        }
        return HistoryArchive(outline: outline, steps: steps)
    }

    /// The scope level the saved outline stands at (0 outside any scope), read without
    /// loading the steps: the outline lists the scopes, outermost first.
    static func scopeLevel(in database: Database) throws(DataFileProblem) -> Int {
        try reading { () throws -> Int in
            let query = try database.statement("SELECT value FROM meta WHERE key = 'outline'")
            try query.bind()
            defer { _ = try? query.bind() }
            guard try query.step(), let bytes = query.blob(0) else { return 0 }
            guard let outline = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                  let scopes = outline["scopes"] as? [Any], !scopes.isEmpty else {
                throw DataFileProblem.damaged("the history's outline cannot be decoded")
            }
            return scopes.count - 1
        }
    }

    /// Runs `body`, its errors said as problems of the data file.
    private static func reading<T>(_ body: () throws -> T) throws(DataFileProblem) -> T {
        do {
            return try body()
        } catch {
            throw DataFileProblem(describing: error)
        }
    }
}

/// What is wrong with a row of the history, said as the library reports it: a step is read
/// when a command first crosses it, and the message reaches the user as the file's damage
/// (or, from ``PersonHistoryRows``, the server history's).
struct HistoryRowDamage: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
