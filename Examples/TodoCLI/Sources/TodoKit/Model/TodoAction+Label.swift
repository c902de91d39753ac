extension TodoAction {

    /// The label of the undo step an action makes, as `todo undo` and `todo history` show
    /// it: `add "milk"`, `edit "milk" → "oat milk"`.
    @Sendable public static func label(_ action: TodoAction) -> String? {
        switch action {
        case let .add(_, title):
            "add \(quoted(title))"
        case let .setDone(_, title, isDone):
            "\(isDone ? "done" : "undone") \(quoted(title))"
        case let .edit(_, from, to):
            "edit \(quoted(from)) → \(quoted(to))"
        case let .remove(_, title):
            "rm \(quoted(title))"
        case let .move(_, title, from, to):
            "move \(quoted(title)) \(from + 1) → \(to + 1)"
        case let .clear(ids):
            "clear \(ids.count) done"
        case let .replaceAll(items, source):
            "import \(items.count) item\(items.count == 1 ? "" : "s") from \(quoted(source))"
        case .absorb:
            nil
        }
    }
}

/// A title in double quotes, for labels and messages, control characters escaped.
func quoted(_ title: String) -> String {
    "\"\(PlainText.escaping(title))\""
}
