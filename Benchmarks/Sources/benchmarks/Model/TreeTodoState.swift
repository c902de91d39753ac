import Revertible

/// The same todo state as ``TodoState``, its items in a `TreeArray`: structurally shared, so
/// recording an edit compares only the chunks that changed.
struct TreeTodoState: Versionable, Sendable, Codable {
    var items: TreeArray<TodoItem>

    func addReversions(into reverter: inout some Reverter<TreeTodoState>) {
        reverter.appendReversion(at: \.items)
    }
}

/// ``TreeTodoState`` with the position of the item last edited or toggled, as an app keeps a
/// selection beside its list: such an action writes the tree and another property in one run
/// (`store-undoable`'s `undoable-tree-selecting`, issue 39).
struct SelectingTreeTodoState: Versionable, Sendable, Codable {
    var items: TreeArray<TodoItem>
    var selected = -1

    func addReversions(into reverter: inout some Reverter<SelectingTreeTodoState>) {
        reverter.appendReversion(at: \.items)
        reverter.appendReversion(at: \.selected)
    }
}
