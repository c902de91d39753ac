import UndoableReducer

/// How `todo history` shows the undo history of the current scope: the start, each step
/// with its label and tag, a `*` on the present, and the steps ahead that redo would replay.
enum HistoryView {

    /// One version of the current scope, as both views show it.
    struct Row: Encodable {
        /// 0 for the scope's start, then one per step.
        var number: Int
        /// The step's label; `nil` for the start.
        var label: String?
        var tag: String?
        /// Whether the step is undone (redo would replay it).
        var undone: Bool
        var present: Bool

        // Every key always present, `null` when empty, so scripts see one shape.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(label, forKey: .label)
            try container.encode(tag, forKey: .tag)
            try container.encode(undone, forKey: .undone)
            try container.encode(present, forKey: .present)
        }

        enum CodingKeys: String, CodingKey {
            case number, label, tag, undone, present
        }
    }

    static func rows(of state: UndoableState<TodoList>) -> [Row] {
        let labels = StepDescriptions(state)
        let tags = state.tags()
        var rows: [Row] = []
        for (offset, tag) in tags.undo.enumerated() {
            rows.append(Row(
                number: offset,
                label: offset == 0 ? nil : labels.undo[offset - 1],
                tag: tag.map(describe),
                undone: false,
                present: offset == state.undoCount
            ))
        }
        for (offset, tag) in tags.redo.enumerated() {
            rows.append(Row(
                number: state.undoCount + 1 + offset,
                label: labels.redo[offset],
                tag: tag.map(describe),
                undone: true,
                present: false
            ))
        }
        return rows
    }

    static func text(_ state: UndoableState<TodoList>, limit: Int, style: Style) -> String {
        var text = ""
        if state.scopeLevel > 0 {
            text += style.yellow("Inside a scope (level \(state.scopeLevel)): \"commit\" makes these steps one, \"rollback\" abandons them") + "\n"
        }
        guard state.hasUndo || state.hasRedo || state.tags().undo[0] != nil else {
            return text + (state.scopeLevel > 0 ? "No changes in this scope yet.\n" : "No history yet.\n")
        }
        text += "\(state.undoCount) to undo, \(state.redoCount) to redo (history limit \(limit))\n"
        let width = String(state.undoCount + state.redoCount).count
        for row in rows(of: state) {
            let number = String(row.number)
            let padded = String(repeating: " ", count: width - number.count) + number
            var line = (row.present ? style.bold("*") : " ") + " " + padded + "  "
            let label = row.label ?? "(start)"
            line += row.undone ? style.dim(label + "  (undone)") : (row.present ? style.bold(label) : label)
            if let tag = row.tag { line += "  " + style.cyan("[\(tag)]") }
            text += line + "\n"
        }
        return text
    }

    /// The shape of `todo history --json`.
    struct Document: Encodable {
        var scopeLevel: Int
        var historyLimit: Int
        var undoCount: Int
        var redoCount: Int
        var versions: [Row]
    }

    static func json(_ state: UndoableState<TodoList>, limit: Int) -> String {
        encodeJSON(Document(
            scopeLevel: state.scopeLevel,
            historyLimit: limit,
            undoCount: state.undoCount,
            redoCount: state.redoCount,
            versions: rows(of: state)
        ))
    }

    /// A tag as the user typed it, control characters escaped.
    static func describe(_ tag: AnyHashable) -> String {
        PlainText.escaping(String(describing: tag.base))
    }
}
