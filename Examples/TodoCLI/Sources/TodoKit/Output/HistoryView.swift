import Foundation
import Revertible
import UndoableReducer

/// How `todo history` shows the current scope: every version, oldest first, as a graph in
/// the manner of `git log --graph`. A change after an undo starts a branch; the branch it left
/// is drawn to the right of the line it forked from (`|\`) and stays reachable with `goto`.
///
/// ```text
/// o v0  (start)
/// o v1  Add "milk"
/// |\
/// | o v2  Add "eggs"
/// * v3  Add "bread"  [shopping]
/// o v4  Done 1  (undone)
/// ```
///
/// `*` marks the present; `(undone)` marks the steps plain `redo` would replay.
enum HistoryView {

    /// One version of the current scope, as both views show it.
    struct Row: Encodable {
        var version: HistoryVersion
        /// The version this one was made from; `nil` for the oldest version kept.
        var parent: HistoryVersion?
        /// The versions made from this one, the one `redo` follows last.
        var branches: [HistoryVersion]
        /// The step's label; `nil` for the oldest version.
        var label: String?
        /// The version's tags, oldest first.
        var tags: [String]
        /// When the step was recorded; `nil` for the oldest version.
        var time: Date?
        /// How many changes the step holds (more than one for a committed scope).
        var changeCount: Int
        /// Whether plain `redo` would replay the step.
        var undone: Bool
        var present: Bool

        private enum CodingKeys: String, CodingKey {
            case version, parent, branches, label, tags, time, changeCount, undone, present
        }

        /// Every key is written, `null` when empty, so the shape never changes.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(version.rawValue, forKey: .version)
            try container.encode(parent?.rawValue, forKey: .parent)
            try container.encode(branches.map(\.rawValue), forKey: .branches)
            try container.encode(label, forKey: .label)
            try container.encode(tags, forKey: .tags)
            try container.encode(time.map(HistoryView.iso8601), forKey: .time)
            try container.encode(changeCount, forKey: .changeCount)
            try container.encode(undone, forKey: .undone)
            try container.encode(present, forKey: .present)
        }
    }

    /// The versions of the current scope, in the order they were made.
    static func rows(of state: UndoableState<TodoList>) -> [Row] {
        let steps = state.tree()
        let versions = Set(steps.map(\.version))
        let root = steps.first { !versions.contains($0.parent) }?.parent ?? state.currentVersionID
        let undone = Set(state.steps().redo.map(\.version))
        // The versions made from each, from the steps' parents in one pass: asking the
        // history for each version's branches searched it every time (history --json took
        // 2.2 s at 10,000 steps). Only a version with several branches asks, for their order.
        var children: [HistoryVersion: [HistoryVersion]] = [:]
        for step in steps { children[step.parent, default: []].append(step.version) }
        func branches(from version: HistoryVersion) -> [HistoryVersion] {
            guard let made = children[version] else { return [] }
            return made.count == 1 ? made : state.branches(from: version).map(\.version)
        }
        var rows = [Row(
            version: root,
            parent: nil,
            branches: branches(from: root),
            label: nil,
            tags: state.tags(of: root).map { describe($0.base) },
            time: nil,
            changeCount: 0,
            undone: false,
            present: root == state.currentVersionID
        )]
        for step in steps {
            rows.append(Row(
                version: step.version,
                parent: step.parent,
                branches: branches(from: step.version),
                label: StepDescriptions.describe(step),
                tags: step.tags.map { describe($0.base) },
                time: Date(timeIntervalSince1970: Double(step.time.components.seconds) + Double(step.time.components.attoseconds) / 1e18),
                changeCount: step.changeCount,
                undone: undone.contains(step.version),
                present: step.version == state.currentVersionID
            ))
        }
        return rows
    }

    static func text(_ state: UndoableState<TodoList>, limit: Int, style: Style) -> String {
        var text = ""
        if state.scopeLevel > 0 {
            text += style.yellow("Inside a scope (level \(state.scopeLevel)): \"commit\" makes these steps one, \"rollback\" abandons them") + "\n"
        }
        let rows = rows(of: state)
        guard rows.count > 1 || !rows[0].tags.isEmpty else {
            return text + (state.scopeLevel > 0 ? "No changes in this scope yet.\n" : "No history yet.\n")
        }
        let branchCount = rows.filter { $0.branches.count > 1 }.reduce(0) { $0 + $1.branches.count - 1 }
        text += "\(state.undoCount) to undo, \(state.redoCount) to redo"
        if branchCount > 0 { text += ", \(branchCount) other branch\(branchCount == 1 ? "" : "es") (goto v<n>)" }
        text += " (history limit \(limit))\n"
        let width = rows.map { String($0.version.rawValue).count }.max() ?? 1
        let byVersion = Dictionary(uniqueKeysWithValues: rows.map { ($0.version, $0) })

        func line(_ row: Row, lanes: String) -> String {
            let number = String(row.version.rawValue)
            let id = "v" + number + String(repeating: " ", count: width - number.count)
            var line = lanes + (row.present ? style.bold("*") : "o") + " " + id + "  "
            let label = row.label ?? "(start)"
            line += row.undone ? style.dim(label + "  (undone)") : (row.present ? style.bold(label) : label)
            if !row.tags.isEmpty { line += "  " + style.cyan("[\(row.tags.joined(separator: ", "))]") }
            return line + "\n"
        }
        // Each branch but the one redo follows is drawn one lane to the right, right after
        // the version it leaves; the followed branch continues in the same lane.
        func draw(from start: HistoryVersion, lanes: String) {
            var version: HistoryVersion? = start
            while let current = version, let row = byVersion[current] {
                text += line(row, lanes: lanes)
                for side in row.branches.dropLast() {
                    text += lanes + "|\\\n"
                    draw(from: side, lanes: lanes + "| ")
                }
                version = row.branches.last
            }
        }
        draw(from: rows[0].version, lanes: "")
        return text
    }

    /// The shape of `todo history --json` (documented in README-TodoCLI.md).
    struct Document: Encodable {
        var scopeLevel: Int
        var historyLimit: Int
        var undoCount: Int
        var redoCount: Int
        var present: UInt64
        var versions: [Row]
    }

    static func json(_ state: UndoableState<TodoList>, limit: Int) -> String {
        encodeJSON(Document(
            scopeLevel: state.scopeLevel,
            historyLimit: limit,
            undoCount: state.undoCount,
            redoCount: state.redoCount,
            present: state.currentVersionID.rawValue,
            versions: rows(of: state)
        ))
    }

    /// `date` in ISO 8601, UTC, to the second (`2026-11-25T19:30:57Z`), as
    /// `ISO8601DateFormatter` writes it; made by hand, since making a formatter per version
    /// cost milliseconds each.
    static func iso8601(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return ISO8601DateFormatter().string(from: date) }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }

    /// A tag as the user typed it, control characters escaped.
    static func describe(_ tag: AnyHashable) -> String {
        PlainText.escaping(String(describing: tag.base))
    }

    // MARK: Everyone's steps (a shared list)

    /// One step of `todo history` on a shared list.
    struct AuthoredRow: Encodable {
        var author: String
        var version: UInt64
        var label: String?
        var time: String
        var changeCount: Int
        var undone: Bool
    }

    static func authoredRows(_ steps: [AuthoredStep]) -> [AuthoredRow] {
        steps.map { entry in
            let time = Date(timeIntervalSince1970: Double(entry.step.time.components.seconds) + Double(entry.step.time.components.attoseconds) / 1e18)
            return AuthoredRow(
                author: entry.author,
                version: entry.step.version.rawValue,
                label: StepDescriptions.describe(entry.step),
                time: iso8601(time),
                changeCount: entry.step.changeCount,
                undone: entry.undone
            )
        }
    }

    /// Everyone's steps, oldest first, one line each: time, author, the step's version in
    /// its author's history, and its label (`history --mine` shows one's own tree).
    static func text(everyone steps: [AuthoredStep], style: Style) -> String {
        guard !steps.isEmpty else { return "No history yet.\n" }
        let rows = authoredRows(steps)
        let width = rows.map { PlainText.escaping($0.author).count }.max() ?? 0
        var text = ""
        for row in rows {
            let author = PlainText.escaping(row.author)
            let label = row.label ?? "change"
            text += "\(style.dim(row.time))  \(author)\(String(repeating: " ", count: width - author.count))  v\(row.version)  "
            text += (row.undone ? style.dim(label + "  (undone)") : label) + "\n"
        }
        return text
    }

    /// `history --json` on a shared list: `{"steps": [{author, version, label, time,
    /// changeCount, undone}]}`.
    static func json(everyone steps: [AuthoredStep]) -> String {
        struct Document: Encodable { var steps: [AuthoredRow] }
        return encodeJSON(Document(steps: authoredRows(steps)))
    }
}
