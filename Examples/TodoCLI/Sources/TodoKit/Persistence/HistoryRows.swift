import Foundation
import Revertible
import UndoableReducer

/// The history's rows: the `steps` table, one row per kept step holding the step's JSON (its
/// parent, label, time and reversion: the change itself, saved exactly, never the action that
/// made it), and the outline in `meta` (scopes, current version, tags: small).
///
/// After a command, only what changed is written: the new steps, the deletions of the steps
/// the history limit dropped, and the outline if it differs from the saved one.
struct HistoryRows {
    /// The saved archive, `nil` for a file without history yet.
    private(set) var archive: HistoryArchive<TodoList>?
    /// The outline's bytes as saved, so an unchanged outline is not rewritten.
    private var outline: Data?

    /// An encoder whose output is a function of the value: the same outline, the same bytes.
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The saved history's rows.
    static func load(from database: Database) throws(DataFileProblem) -> HistoryRows {
        let decoder = JSONDecoder()
        do {
            let outlineQuery = try database.statement("SELECT value FROM meta WHERE key = 'outline'")
            try outlineQuery.bind()
            guard try outlineQuery.step(), let outlineBytes = outlineQuery.blob(0) else {
                try outlineQuery.bind()
                // No history saved; steps without an outline would be damage.
                guard try database.integer("SELECT count(*) FROM steps") == 0 else {
                    throw DataFileProblem.damaged("history steps without an outline")
                }
                return HistoryRows(archive: nil, outline: nil)
            }
            try outlineQuery.bind()
            let outline: HistoryArchive<TodoList>.Outline
            guard JSONNumberCheck.isSound(outlineBytes) else {
                throw DataFileProblem.damaged("the history's outline holds a number out of range")
            }
            do {
                outline = try decoder.decode(HistoryArchive<TodoList>.Outline.self, from: outlineBytes)
            } catch {
                throw DataFileProblem.damaged("the history's outline cannot be decoded")
            }
            var steps: [HistoryArchive<TodoList>.Step] = []
            let stepQuery = try database.statement("SELECT version, step FROM steps ORDER BY version")
            try stepQuery.bind()
            defer { _ = try? stepQuery.bind() }
            while try stepQuery.step() {
                let version = stepQuery.integer(0)
                if let bytes = stepQuery.blob(1), !JSONNumberCheck.isSound(bytes) {
                    throw DataFileProblem.damaged("history step \(version) holds a number out of range")
                }
                guard let bytes = stepQuery.blob(1),
                      let step = try? decoder.decode(HistoryArchive<TodoList>.Step.self, from: bytes),
                      step.version.rawValue == UInt64(bitPattern: version)
                else {
                    throw DataFileProblem.damaged("history step \(version) cannot be decoded")
                }
                steps.append(step)
            }
            return HistoryRows(archive: HistoryArchive(outline: outline, steps: steps), outline: outlineBytes)
        } catch let problem as DataFileProblem {
            throw problem
        } catch let error as DatabaseError {
            throw DataFileProblem(error)
        } catch {
            throw .damaged(String(describing: error))
        }
    }

    /// The scope level the saved outline stands at (0 outside any scope), read without
    /// loading the steps: the outline lists the scopes, outermost first.
    static func scopeLevel(in database: Database) throws(DataFileProblem) -> Int {
        do {
            let query = try database.statement("SELECT value FROM meta WHERE key = 'outline'")
            try query.bind()
            defer { _ = try? query.bind() }
            guard try query.step(), let bytes = query.blob(0) else { return 0 }
            guard let outline = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
                  let scopes = outline["scopes"] as? [Any], !scopes.isEmpty else {
                throw DataFileProblem.damaged("the history's outline cannot be decoded")
            }
            return scopes.count - 1
        } catch let problem as DataFileProblem {
            throw problem
        } catch let error as DatabaseError {
            throw DataFileProblem(error)
        } catch {
            throw .damaged(String(describing: error))
        }
    }

    /// The undoable state made of `present` and this history; checked by the library (the
    /// structure, each step's checksum, and the steps next to the present), so a damaged
    /// history or one that does not fit the list is refused, never half loaded.
    ///
    /// Older steps are not checked against the list: another program may have edited a row
    /// that an older step also changed, which is not damage; a move that reaches such a step
    /// is refused before anything is written (``HistoryMismatch/checkLoadable(_:)``).
    func state(present: TodoList) throws(DataFileProblem) -> UndoableState<TodoList> {
        guard let archive else { return UndoableState(present) }
        do {
            return try UndoableState(present: present, archive: archive, checkingEveryStep: false)
        } catch {
            throw .damaged(HistoryMismatch.readable(error.message))
        }
    }

    /// What changed in the history between `before` (as saved) and `after`, encoded and
    /// ready to write.
    struct Changes {
        /// Versions of the steps to delete (dropped by the limit, or rolled back).
        var removed: [Int64]
        /// New steps: version and JSON.
        var saved: [(version: Int64, bytes: Data)]
        /// The new outline's JSON, if it differs from the saved one.
        var outline: Data?
        /// The history after the change.
        var archive: HistoryArchive<TodoList>

        /// Every JSON document to be written, to check what they mention.
        var documents: [Data] {
            saved.map(\.bytes) + (outline.map { [$0] } ?? [])
        }
    }

    /// Encodes what changed in the history between `before` (as saved) and `after`.
    func changes(before: UndoableState<TodoList>, after: UndoableState<TodoList>) throws -> Changes {
        let newArchive = after.archive
        let changes = newArchive.changes(since: before.archive)
        let encoder = Self.encoder()
        let outline = try encoder.encode(changes.outline)
        return Changes(
            removed: changes.removedVersions.map { Int64(bitPattern: $0.rawValue) },
            saved: try changes.savedSteps.map { (Int64(bitPattern: $0.version.rawValue), try encoder.encode($0)) },
            outline: outline == self.outline ? nil : outline,
            archive: newArchive
        )
    }

    /// Writes `changes`, made by ``changes(before:after:)`` of this value.
    mutating func write(_ changes: Changes, to database: Database) throws {
        if !changes.removed.isEmpty {
            let delete = try database.statement("DELETE FROM steps WHERE version = ?")
            for version in changes.removed {
                try delete.bind(.integer(version)).run()
            }
        }
        if !changes.saved.isEmpty {
            let save = try database.statement("INSERT OR REPLACE INTO steps (version, step) VALUES (?, ?)")
            for (version, bytes) in changes.saved {
                try save.bind(.integer(version), .blob(bytes)).run()
            }
        }
        if let outline = changes.outline {
            try database.statement("INSERT OR REPLACE INTO meta (key, value) VALUES ('outline', ?)").bind(.blob(outline)).run()
            self.outline = outline
        }
        archive = changes.archive
    }

    /// Writes what changed in the history between `before` (as saved) and `after`.
    mutating func write(before: UndoableState<TodoList>, after: UndoableState<TodoList>, to database: Database) throws {
        try write(changes(before: before, after: after), to: database)
    }

    /// Replaces the saved history with `state`'s: for imports.
    static func replaceAll(with state: UndoableState<TodoList>, in database: Database) throws -> HistoryRows {
        try database.execute("DELETE FROM steps; DELETE FROM meta WHERE key = 'outline'", operation: "write the history")
        var rows = HistoryRows(archive: nil, outline: nil)
        try rows.write(before: UndoableState(state.present), after: state, to: database)
        return rows
    }
}
