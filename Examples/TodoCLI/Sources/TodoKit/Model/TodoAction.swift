import Foundation

/// A change to the todo list, as the reducer receives it and the history file replays it.
///
/// Actions address items by id, not position, and carry everything the reducer and the
/// step labels need (new ids, the titles a label shows), so that reducing them is
/// deterministic: the saved history replays to exactly the saved list.
public enum TodoAction: Hashable, Codable, Sendable {
    /// Appends a new item.
    case add(id: UUID, title: String)
    /// Marks an item done (`true`) or not done; `title` is for the label.
    case setDone(id: UUID, title: String, isDone: Bool)
    /// Renames an item; `from` is for the label.
    case edit(id: UUID, from: String, to: String)
    /// Removes an item; `title` is for the label.
    case remove(id: UUID, title: String)
    /// Moves an item to a 0-based index; the positions and title are for the label.
    case move(id: UUID, title: String, from: Int, to: Int)
    /// Removes the listed (done) items; the caller lists them so the reducer never decides.
    case clear(ids: [UUID])
    /// Replaces the whole list (`todo import`); `source` is for the label.
    case replaceAll(items: [TodoItem], source: String)
    /// Takes the list as other people left it, without an undo step: their changes become
    /// part of the caller's history's present, never of the caller's undo (see
    /// ``OtherWriters``). Never recorded, never saved.
    case absorb(items: [TodoItem])
}
