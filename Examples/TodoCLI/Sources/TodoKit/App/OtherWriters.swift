import Foundation
import Revertible
import UndoableReducer

/// The todo's side of "other writers" (issue 24), in one place.
///
/// The server store absorbs what other people changed into the caller's history, without a
/// step, before every command (``absorb(_:into:)``); a move through the history then runs
/// under the engine's `.skip` policy, which leaves what an absorbed change wrote since a
/// step and lists it in `lastConflicts`, made into ``SkippedPart``s by
/// ``SkippedPart/parts(of:current:known:)``.
enum OtherWriters {

    /// Makes `list` the present of the store's history without an undo step: what other
    /// people changed is theirs, never undone by the caller.
    static func absorb(_ list: TodoList, into store: TodoStore) {
        guard !sameItems(store.state.present, list) else { return }
        store.send(.action(.absorb(items: Array(list.items))))
    }

    /// Whether two lists hold the same items in the same order: the trees' own equality,
    /// which skips the chunks two versions share (an undo's before and after share all but
    /// the chunks it wrote), so asking costs what the move changed, not the list's length.
    static func sameItems(_ a: TodoList, _ b: TodoList) -> Bool {
        a.items == b.items
    }
}

/// A part of a move that was not applied, because someone else changed it since the step
/// was made (or since it was undone).
public struct SkippedPart: Equatable, Sendable, Encodable {
    /// What the part is about: `title`, `done` or `item` (the item as a whole: removing or
    /// restoring it), or `list` (the list as a whole: a part the engine names no item for,
    /// such as the order of items it could not place).
    public var field: String
    /// The item's id; `nil` for the list as a whole.
    public var item: UUID?
    /// The item's title now, or as the step knew it if it is gone; empty for the list.
    public var title: String
    /// Who changed it last, if the store knows.
    public var changedBy: String?
    /// Whether the item is gone from the list.
    public var removed: Bool
}

extension SkippedPart {

    /// The part an engine conflict names, if it is an item's: `\TodoList.items[id: …]` (the
    /// item as a whole), or its `.title` or `.isDone`. The title is the item's in `current`
    /// (the list as it is now), else the first of `known` that holds it.
    init?(_ conflict: ReversionConflict, current: TodoList, known: [TodoList]) {
        let location = conflict.location
        guard let open = location.range(of: "[id: "),
              let close = location[open.upperBound...].firstIndex(of: "]"),
              let id = UUID(uuidString: String(location[open.upperBound..<close]))
        else { return nil }
        let rest = location[location.index(after: close)...]
        let field: String
        switch rest {
        case "": field = "item"
        case ".title": field = "title"
        case ".isDone": field = "done"
        default: return nil
        }
        let now = current.index(of: id).map { current.items[$0] }
        let title = now?.title ?? known.lazy.compactMap { list in list.index(of: id).map { list.items[$0].title } }.first ?? String(ShortID.hex(id).prefix(8))
        self.init(field: field, item: id, title: title, changedBy: nil, removed: now == nil)
    }

    /// The list as a whole: what a conflict that names no item's field stands for.
    static var wholeList: SkippedPart {
        SkippedPart(field: "list", item: nil, title: "", changedBy: nil, removed: false)
    }

    /// The parts `conflicts` name, each once, in the order first named (a move over several
    /// steps may meet one part in more than one of them).
    ///
    /// A conflict that names no item's field is the list as a whole: never dropped, or a
    /// move that skipped all it would do would say it worked (issue 35: an undone `clear`
    /// that restored nothing).
    static func parts(of conflicts: [ReversionConflict], current: TodoList, known: [TodoList]) -> [SkippedPart] {
        var parts: [SkippedPart] = []
        for conflict in conflicts {
            let part = SkippedPart(conflict, current: current, known: known) ?? .wholeList
            guard !parts.contains(where: part.isSamePart) else { continue }
            parts.append(part)
        }
        return parts
    }

    /// Whether both name the same field of the same item.
    func isSamePart(as other: SkippedPart) -> Bool {
        item == other.item && field == other.field
    }
}
