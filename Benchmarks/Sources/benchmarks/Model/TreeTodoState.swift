import Revertible

/// The same todo state as ``TodoState``, its items in a `TreeArray`: structurally shared, so
/// recording an edit compares only the chunks that changed.
struct TreeTodoState: Versionable, Sendable, Codable {
    var items: TreeArray<TodoItem>

    func addReversions(into reverter: inout some Reverter<TreeTodoState>) {
        reverter.appendReversion(at: \.items)
    }
}
