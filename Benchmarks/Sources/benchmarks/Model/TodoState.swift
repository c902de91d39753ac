import Revertible

/// A todo list's state: its items, diffed by identity.
struct TodoState: Versionable, Hashable, Sendable {
    var items: [TodoItem]

    func addReversions(into reverter: inout some Reverter<TodoState>) {
        reverter.appendReversion(at: \.items)
    }
}
