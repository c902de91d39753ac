import Foundation
import Revertible
import UndoableReducer

/// One person's history on the server, a ``HistoryStepStore`` over their rows of the `steps`
/// table (one per kept step: the step's JSON, with its parent and scope in columns of their
/// own) and the outline in their `histories.state` text (``SavedHistory``).
///
/// A command reads the outline, which the caller has already read with the person's row of
/// `histories`, and then the rows of the steps it crosses, each with its parent (whose depth
/// the step's is checked against): a few rows for `add` or `undo`, whatever the history's
/// length. What changed is written back, a row per step (``encode(_:replacingAll:)``,
/// ``write(_:)``).
///
/// A history saved before ``ServerSchema/lazyHistoryVersion`` (the whole archive in `state`,
/// or rows without the columns and steps without their depth) is read whole
/// (``wholeArchive()``) and rewritten, every row, by the person's next command that writes.
///
/// `@unchecked Sendable`: the protocol asks for it because a history may cross threads, but a
/// server command runs on one thread from its first read to its last write, and these rows
/// are read only inside a transaction on their connection: made for one, and kept for the
/// next command of the same process only once that one committed (see
/// `TodoServerStore.keptHistory`).
final class PersonHistoryRows: HistoryStepStore, @unchecked Sendable {
    typealias Value = TodoList

    private let connection: PostgresConnection
    /// Whose rows these are: the `author` of their rows in `steps` and `histories`.
    let author: String
    private var savedOutline: HistoryArchive<TodoList>.Outline?
    /// Told how many rows of `steps` each read returned.
    private let counted: (Int) -> Void
    /// The first error the server answered a read with. The library reports a failed read
    /// as a step that cannot be read, but a lost connection or a transaction the server
    /// refused is no damage of the history: the command throws this instead, and the
    /// transaction is run again or reported as the server's failure.
    private(set) var serverFailure: PostgresError?

    /// `author`'s rows, read through `connection`, with `outline` as read from their `state`
    /// (`nil`: nothing saved yet); `counted` is told how many rows each read returns.
    init(_ connection: PostgresConnection, author: String, outline: HistoryArchive<TodoList>.Outline?, counted: @escaping (Int) -> Void) {
        self.connection = connection
        self.author = author
        savedOutline = outline
        self.counted = counted
    }

    /// Whether these rows read through `connection` and have met no failure of the server.
    func reads(through connection: PostgresConnection) -> Bool {
        self.connection === connection && serverFailure == nil
    }

    // MARK: The store the library reads

    func outline() throws -> HistoryArchive<TodoList>.Outline? {
        savedOutline
    }

    func step(leadingTo version: HistoryVersion) throws -> HistoryArchive<TodoList>.Step? {
        let key = Int64(bitPattern: version.rawValue)
        let rows = try query("SELECT step FROM steps WHERE author = $1 AND version = $2::bigint", [author, String(key)])
        guard let row = rows.first else { return nil }
        return try Self.decode(row[0], version: key)
    }

    func versions(after parent: HistoryVersion) throws -> [HistoryVersion] {
        try versions("SELECT version FROM steps WHERE author = $1 AND parent = $2::bigint", String(Int64(bitPattern: parent.rawValue)))
    }

    func versions(inScope level: Int) throws -> [HistoryVersion] {
        try versions("SELECT version FROM steps WHERE author = $1 AND scope = $2::integer", String(level))
    }

    /// Writes `changes` and the outline in the person's `state`, which must exist: the todo's
    /// own commands write `state` with the rest of the person's row instead (``write(_:)``).
    func write(_ changes: HistoryArchive<TodoList>.Changes) throws {
        let state = try write(encode(changes, replacingAll: false))
        try query("UPDATE histories SET state = $2 WHERE author = $1", [author, state])
    }

    private func versions(_ sql: String, _ value: String) throws -> [HistoryVersion] {
        try query(sql, [author, value]).map { row in
            guard let text = row[0], let version = Int64(text) else {
                throw HistoryRowDamage("a row of \(PlainText.escaping(author))'s history steps has no version")
            }
            return HistoryVersion(UInt64(bitPattern: version))
        }
    }

    /// Runs a read of `steps`, counting its rows and keeping the server's first failure.
    @discardableResult
    private func query(_ sql: String, _ parameters: [String?]) throws -> [[String?]] {
        do {
            let rows = try connection.query(sql, parameters)
            counted(rows.count)
            return rows
        } catch {
            if serverFailure == nil { serverFailure = error }
            throw error
        }
    }

    /// The step whose JSON is `text`, saved as `version`.
    private static func decode(_ text: String?, version: Int64) throws(HistoryRowDamage) -> HistoryArchive<TodoList>.Step {
        let bytes = Data((text ?? "").utf8)
        guard JSONNumberCheck.isSound(bytes) else {
            throw HistoryRowDamage("history step \(version) holds a number out of range")
        }
        guard let step = try? HistoryArchive<TodoList>.Step(json: bytes),
              step.version.rawValue == UInt64(bitPattern: version) else {
            throw HistoryRowDamage("history step \(version) cannot be decoded")
        }
        return step
    }

    // MARK: Whole

    /// Every saved step and the outline, read in one query: for a history saved before its
    /// steps could be read one at a time, for everyone's `history`, which shows every step
    /// of every person, and for `todo check`.
    func wholeArchive() throws -> HistoryArchive<TodoList> {
        guard let outline = savedOutline else { throw HistoryRowDamage("the history has neither an archive nor an outline") }
        let steps = try query("SELECT version, step FROM steps WHERE author = $1 ORDER BY version", [author]).map { row in
            guard let version = row[0].flatMap({ Int64($0) }) else {
                throw HistoryRowDamage("a row of \(PlainText.escaping(author))'s history steps has no version")
            }
            return try Self.decode(row[1], version: version)
        }
        return HistoryArchive(outline: outline, steps: steps)
    }

    // MARK: Writing

    /// What changed in the history, encoded and ready to write.
    struct Changes {
        /// Whether every saved row goes first: the history was read whole (saved before its
        /// steps had columns) or is new, so `saved` holds every step.
        var replacesAll: Bool
        /// Versions of the steps to delete (dropped by the limit, or rolled back).
        var removed: [Int64]
        /// New and changed steps: version, parent, scope and JSON.
        var saved: [(version: Int64, parent: Int64, scope: Int, text: String)]
        /// The outline the `state` text holds.
        var outline: HistoryArchive<TodoList>.Outline
        /// The person's `state` text: the outline, marked as saved in rows of this form.
        var state: String

        /// Every text to be written, to check what they mention.
        var documents: [String] { saved.map(\.text) + [state] }
    }

    /// Encodes `changes`, after deleting every saved row first when `replacingAll`.
    func encode(_ changes: HistoryArchive<TodoList>.Changes, replacingAll: Bool) throws -> Changes {
        let encoder = JSONEncoder()
        return Changes(
            replacesAll: replacingAll,
            removed: changes.removedVersions.map { Int64(bitPattern: $0.rawValue) },
            saved: try changes.savedSteps.map {
                (Int64(bitPattern: $0.version.rawValue), Int64(bitPattern: $0.parent.rawValue), $0.scopeLevel, String(decoding: try encoder.encode($0), as: UTF8.self))
            },
            outline: changes.outline,
            state: try SavedHistory(outline: changes.outline).text()
        )
    }

    /// Writes the steps of `changes`, made by ``encode(_:replacingAll:)``; returns the `state`
    /// text for the caller to write with the rest of the person's row.
    func write(_ changes: Changes) throws -> String {
        if changes.replacesAll {
            try connection.query("DELETE FROM steps WHERE author = $1", [author])
        }
        for version in changes.removed {
            try connection.query("DELETE FROM steps WHERE author = $1 AND version = $2::bigint", [author, String(version)])
        }
        for step in changes.saved {
            try connection.query(
                """
                INSERT INTO steps (author, version, parent, scope, step) VALUES ($1, $2::bigint, $3::bigint, $4::integer, $5)
                ON CONFLICT (author, version) DO UPDATE SET parent = EXCLUDED.parent, scope = EXCLUDED.scope, step = EXCLUDED.step
                """,
                [author, String(step.version), String(step.parent), String(step.scope), step.text]
            )
        }
        savedOutline = changes.outline
        return changes.state
    }
}

/// A person's `histories.state` text: their history's outline, with its steps in rows of
/// `steps`, or (as version 1 of the schema saved it) the whole archive; and the present when
/// it is not the list at their `seen_version`.
struct SavedHistory: Codable {
    var present: TodoList?
    var history: HistoryArchive<TodoList>?
    var outline: HistoryArchive<TodoList>.Outline?
    /// ``ServerSchema/lazyHistoryVersion`` when the rows were written for reading one step at
    /// a time (each with its parent and scope, each step with its depth); absent in a history
    /// saved before, which is read whole until its next write rewrites it.
    var format: Int?

    /// The outline of a history written now, with `present` when it is saved too.
    init(outline: HistoryArchive<TodoList>.Outline, present: TodoList? = nil) {
        self.present = present
        self.outline = outline
        format = ServerSchema.lazyHistoryVersion
    }

    /// Whether the history's steps can be read one at a time.
    var readsLazily: Bool {
        outline != nil && history == nil && format == ServerSchema.lazyHistoryVersion
    }

    /// The JSON text `state` holds.
    func text() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}
