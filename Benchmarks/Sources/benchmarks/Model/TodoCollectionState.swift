import Revertible

/// What the scenarios do to a todo state, whichever collection holds its items, so one
/// generic loop (specialized per state type) drives both.
protocol TodoCollectionState: Equatable, Sendable {
    /// A state holding `items`, in storage of its own (shared with no other value), so that
    /// heap figures count only what a run adds.
    init(detached items: [TodoItem])
    var itemCount: Int { get }
    var itemArray: [TodoItem] { get }
    func title(at index: Int) -> String
    mutating func setTitle(_ title: String, at index: Int)
    mutating func toggle(at index: Int)
    mutating func append(_ item: TodoItem)
    mutating func remove(at index: Int)
    /// What the results add to an implementation's name for this storage: `""` for an
    /// `Array`, `"-tree"` for a `TreeArray`.
    static var storageSuffix: String { get }
}

extension TodoState: TodoCollectionState {
    static let storageSuffix = ""

    init(detached items: [TodoItem]) {
        var own = [TodoItem]()
        own.reserveCapacity(items.count)
        own.append(contentsOf: items)
        self.init(items: own)
    }
    var itemCount: Int { items.count }
    var itemArray: [TodoItem] { items }
    func title(at index: Int) -> String { items[index].title }
    mutating func setTitle(_ title: String, at index: Int) { items[index].title = title }
    mutating func toggle(at index: Int) { items[index].isDone.toggle() }
    mutating func append(_ item: TodoItem) { items.append(item) }
    mutating func remove(at index: Int) { items.remove(at: index) }
}

extension TreeTodoState: TodoCollectionState {
    static let storageSuffix = "-tree"

    init(detached items: [TodoItem]) {
        self.init(items: TreeArray(items))
    }
    var itemCount: Int { items.count }
    var itemArray: [TodoItem] { Array(items) }
    func title(at index: Int) -> String { items[index].title }
    mutating func setTitle(_ title: String, at index: Int) { items[index].title = title }
    mutating func toggle(at index: Int) { items[index].isDone.toggle() }
    mutating func append(_ item: TodoItem) { items.append(item) }
    mutating func remove(at index: Int) { items.remove(at: index) }
}

extension SelectingTreeTodoState: TodoCollectionState {
    static let storageSuffix = "-tree-selecting"

    init(detached items: [TodoItem]) {
        self.init(items: TreeArray(items))
    }
    var itemCount: Int { items.count }
    var itemArray: [TodoItem] { Array(items) }
    func title(at index: Int) -> String { items[index].title }
    mutating func setTitle(_ title: String, at index: Int) {
        items[index].title = title
        selected = index
    }
    mutating func toggle(at index: Int) {
        items[index].isDone.toggle()
        selected = index
    }
    mutating func append(_ item: TodoItem) { items.append(item) }
    mutating func remove(at index: Int) { items.remove(at: index) }
}
