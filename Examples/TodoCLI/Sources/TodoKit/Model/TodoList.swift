import Revertible

/// The whole todo list: the state the reducer evolves and the file's "present" section.
public struct TodoList: Versionable, Codable, Sendable {
    /// The items in list order; an item's 1-based position here is how commands address it.
    /// A `TreeArray`, so recording a change compares only the chunks it touched, and the
    /// history's copy of the list shares every other chunk with the present.
    public var items: TreeArray<TodoItem>

    public init(items: [TodoItem] = []) {
        self.items = TreeArray(items)
    }

    public init(items: TreeArray<TodoItem>) {
        self.items = items
    }

    public func addReversions(into reverter: inout some Reverter<TodoList>) {
        // Diffed by identity, so a step keeps only the items it touched.
        reverter.appendReversion(at: \.items)
    }

    /// The index of the item with `id`, if it is still in the list.
    func index(of id: TodoItem.ID) -> Int? {
        items.firstIndex { $0.id == id }
    }
}
