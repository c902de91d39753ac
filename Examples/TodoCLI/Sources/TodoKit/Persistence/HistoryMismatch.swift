import Foundation
import UndoableReducer

/// The library's words for a history that does not fit the list, in the words of `todo`.
///
/// The library names where a step fails to apply as Swift writes the location
/// (`\TodoList.items[id: 8D41…].title`), which says little to a user of `todo` (who never sees
/// item ids in that form). These become the todo's own names for the fields ("an item's title").
enum HistoryMismatch {

    /// `message` with the key paths of the todo's model named as `todo` names them.
    static func readable(_ message: String) -> String {
        var text = message
        let fields = ["title": "title", "isDone": "done mark", "id": "id"]
        for (field, name) in fields {
            text = replacing(#"\\TodoList\.items\[id: [0-9A-Fa-f-]+\]\."# + field + #"\b"#, in: text, with: "an item's \(name)")
        }
        text = replacing(#"\\TodoList\.items\[id: [0-9A-Fa-f-]+\]"#, in: text, with: "an item")
        text = replacing(#"\\TodoList\.items"#, in: text, with: "the list of items")
        // Any other address: never shown.
        return replacing(#"<computed 0x[0-9A-Fa-f]+ \(([A-Za-z]+)\)>"#, in: text, with: "(a $1)")
    }

    /// Throws unless `state` would load again as saved: the steps next to its present apply
    /// to it. A command that moves through the history applies old steps to the list, and
    /// if another program edited a row a step also changed, the result would be refused by
    /// every later command; it is refused before it is written instead.
    static func checkLoadable(_ state: UndoableState<TodoList>) throws(TodoError) {
        do {
            try state.checkHistoryFitsPresent()
        } catch {
            throw .badInput("cannot move there in the history: the list was changed outside todo where a saved step also changes it (\(readable(error.message))); nothing was changed")
        }
    }

    private static func replacing(_ pattern: String, in text: String, with template: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
        return expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
    }
}
