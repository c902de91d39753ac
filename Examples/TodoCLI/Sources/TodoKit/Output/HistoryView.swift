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

    /// How many steps a listing keeps decoded while it walks a history over a store: enough
    /// for a step's parent and its branches to be read once, while memory stays flat however
    /// long the history.
    static let readWindow = 64

    /// How many versions `history --json` encodes at a time.
    static let rowsPerBatch = 256

    /// The oldest version of the current scope, as both views show it.
    static func rootRow(of state: UndoableState<TodoList>, floor: HistoryVersion) -> Row {
        Row(
            version: floor,
            parent: nil,
            branches: state.currentScopeBranches(from: floor),
            label: nil,
            tags: state.tags(of: floor).map { describe($0.base) },
            time: nil,
            changeCount: 0,
            undone: false,
            present: floor == state.currentVersionID
        )
    }

    /// The version `step` leads to, as both views show it.
    static func row(of step: HistoryStep, in state: UndoableState<TodoList>, undone: Bool) -> Row {
        Row(
            version: step.version,
            parent: step.parent,
            branches: state.currentScopeBranches(from: step.version),
            label: StepDescriptions.describe(step),
            tags: step.tags.map { describe($0.base) },
            time: Date(timeIntervalSince1970: Double(step.time.components.seconds) + Double(step.time.components.attoseconds) / 1e18),
            changeCount: step.changeCount,
            undone: undone,
            present: step.version == state.currentVersionID
        )
    }

    /// Writes the text view of `state`'s current scope to `output` a version at a time:
    /// the first lines go out before the last steps are read, and only a window of steps is
    /// kept (``readWindow``). Stops early, having read no further, when `output` says the
    /// reader is gone. A step that cannot be read ends the listing there; the caller reports
    /// it (``UndoableState/historyReadFailure``). `horizonNote`, when given, says why a
    /// history with no steps outside a scope is empty (``TodoStorage/horizonNote``).
    static func text(_ state: UndoableState<TodoList>, limit: Int, style: Style, horizonNote: String? = nil, to output: inout ChunkedOutput) {
        state.readingStepsWithin(window: readWindow) {
            writeText(state, limit: limit, style: style, horizonNote: horizonNote, to: &output)
        }
        output.flush()
    }

    private static func writeText(_ state: UndoableState<TodoList>, limit: Int, style: Style, horizonNote: String?, to output: inout ChunkedOutput) {
        let shape = state.currentScopeShape
        // Unread, but the width of the widest number is needed on the first line already.
        let versions = state.currentScopeVersions()
        if state.historyReadFailure != nil { return }
        if state.scopeLevel > 0 {
            output.write(style.yellow("Inside a scope (level \(state.scopeLevel)): \"commit\" makes these steps one, \"rollback\" abandons them") + "\n")
        }
        let root = rootRow(of: state, floor: shape.floor)
        guard !versions.isEmpty || !root.tags.isEmpty else {
            if state.scopeLevel > 0 {
                output.write("No changes in this scope yet.\n")
            } else if let horizonNote {
                output.write("No history: \(horizonNote)\n")
            } else {
                output.write("No history yet.\n")
            }
            return
        }
        var header = "\(state.undoCount) to undo, \(state.redoCount) to redo"
        let branchCount = shape.extraBranches
        if branchCount > 0 { header += ", \(branchCount) other branch\(branchCount == 1 ? "" : "es") (goto v<n>)" }
        output.write(header + " (history limit \(limit))\n")
        let width = String(max(versions.last ?? shape.floor, shape.floor).rawValue).count

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
        // the version it leaves; the followed branch continues in the same lane. A version is
        // undone when redo's way from the present reaches it: its parent is the present or
        // undone, and it is the branch redo follows.
        func draw(from start: HistoryVersion, undone startUndone: Bool, lanes: String) {
            var version: HistoryVersion? = start
            var undone = startUndone
            while let current = version, !output.isClosed {
                let row: Row
                if current == shape.floor {
                    row = root
                } else {
                    guard let step = state.currentScopeStep(current) else { return }
                    row = self.row(of: step, in: state, undone: undone)
                }
                output.write(line(row, lanes: lanes))
                for side in row.branches.dropLast() {
                    output.write(lanes + "|\\\n")
                    draw(from: side, undone: false, lanes: lanes + "| ")
                }
                undone = row.present || row.undone
                version = row.branches.last
            }
        }
        draw(from: root.version, undone: false, lanes: "")
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

    /// Writes `todo history --json` for `state` to `output` a version at a time, byte for
    /// byte what ``encodeJSON(_:)`` makes of a ``Document`` of every version (pretty-printed,
    /// keys sorted, `versions` last), with the same reading as ``text(_:limit:style:to:)``.
    static func json(_ state: UndoableState<TodoList>, limit: Int, to output: inout ChunkedOutput) {
        state.readingStepsWithin(window: readWindow) {
            writeJSON(state, limit: limit, to: &output)
        }
        output.flush()
    }

    private static func writeJSON(_ state: UndoableState<TodoList>, limit: Int, to output: inout ChunkedOutput) {
        let shape = state.currentScopeShape
        let versions = state.currentScopeVersions()
        if state.historyReadFailure != nil { return }
        // The keys before `versions`, in sorted order, as the encoder writes them.
        output.write("""
            {
              "historyLimit" : \(limit),
              "present" : \(state.currentVersionID.rawValue),
              "redoCount" : \(state.redoCount),
              "scopeLevel" : \(state.scopeLevel),
              "undoCount" : \(state.undoCount),
              "versions" : [

            """)
        let encoder = jsonOutputEncoder()
        var batch: [Row] = []
        var isFirstBatch = true
        // Rows are encoded a batch at a time, as the elements of an array, and indented to
        // their place: a raw newline never occurs inside a JSON string, so every line break
        // is the layout's. (One encoder call per row took twice the time of the whole
        // document's single call: each call has a fixed cost.)
        func writeBatch() {
            guard !batch.isEmpty else { return }
            // "[\n  {…},\n  {…}\n]\n": the elements alone, two spaces in.
            let elements = encodeJSON(batch, using: encoder).dropFirst(2).dropLast(3)
            output.write((isFirstBatch ? "  " : ",\n  ") + elements.replacingOccurrences(of: "\n", with: "\n  "))
            isFirstBatch = false
            batch.removeAll(keepingCapacity: true)
        }
        batch.append(rootRow(of: state, floor: shape.floor))
        // Redo's way from the present, met in order: each of its versions is newer than the one
        // before, and the rows go oldest first.
        var nextUndone = state.currentScopeBranches(from: state.currentVersionID).last
        for version in versions {
            guard !output.isClosed else { return }
            guard let step = state.currentScopeStep(version) else {
                // Unreadable: the listing ends, and the caller reports it. Merely absent
                // (listed by the store, then not found): left out, as a whole listing did.
                if state.historyReadFailure != nil {
                    writeBatch()
                    return
                }
                continue
            }
            let undone = version == nextUndone
            let row = row(of: step, in: state, undone: undone)
            if undone { nextUndone = row.branches.last }
            batch.append(row)
            if batch.count == Self.rowsPerBatch { writeBatch() }
        }
        writeBatch()
        output.write("\n  ]\n}\n")
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
