import Foundation
import Revertible
import UndoableReducer

/// The todo's side of "other writers" (issue 24), in one place.
///
/// A move on the server store skips in two places: the engine, under `.skip`, leaves what
/// changes absorbed into the caller's history wrote since a step (its `lastConflicts`, made
/// into ``SkippedPart``s by ``SkippedPart/init(_:current:known:)``); ``SelectiveMove`` then
/// carries the move from the caller's saved view onto the list as it is now, skipping what
/// others changed after that view was saved. ``SelectiveMove`` could give way to the engine
/// if every move first absorbed the current list; that would change where moved and
/// restored items land (it places them by their neighbours), so it stays for now.
enum OtherWriters {

    /// Makes `list` the present of the store's history without an undo step: what other
    /// people changed is theirs, never undone by the caller.
    static func absorb(_ list: TodoList, into store: TodoStore) {
        guard !sameItems(store.state.present, list) else { return }
        store.send(.action(.absorb(items: Array(list.items))))
    }

    /// Whether the engine keeps a person's older steps applicable after absorbing other
    /// people's changes. Not yet on `main`: a `TreeArray` step checks the list's count and
    /// positions, so a step made before an absorbed insert or removal no longer applies. The
    /// server store therefore records a command on the caller's own view whenever it can
    /// (``replaysOnView(_:view:current:)``), absorbing only when the command touches an item
    /// someone else changed, moves or imports; if the caller's next undo then no longer fits,
    /// it says so and continues their history from the present, never saving one it could not
    /// load. With the engine's identity locations (issue 24) this becomes `true`: absorb
    /// always, and the check and the view replay go.
    static let keepsOlderSteps = false

    /// Whether `actions` can be recorded on the caller's own `view` of the list instead of
    /// on the list as it is now: each item they name is in the view exactly as it is now,
    /// and none depends on positions (a move) or on the whole list (an import).
    static func replaysOnView(_ actions: [UndoableAction<TodoAction>], view: TodoList, current: TodoList) -> Bool {
        let viewed = Dictionary(view.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(current.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func same(_ id: UUID) -> Bool { viewed[id] != nil && viewed[id] == now[id] }
        for action in actions {
            guard case let .action(action) = action else { continue }
            switch action {
            case .add: continue
            case let .setDone(id, _, _), let .edit(id, _, _), let .remove(id, _):
                guard same(id) else { return false }
            case let .clear(ids):
                guard ids.allSatisfy(same) else { return false }
            case .move, .replaceAll, .absorb:
                return false
            }
        }
        return true
    }

    /// Whether two lists hold the same items in the same order.
    static func sameItems(_ a: TodoList, _ b: TodoList) -> Bool {
        a.items.count == b.items.count && a.items.elementsEqual(b.items)
    }
}

/// A part of a move that was not applied, because someone else changed it since the step
/// was made (or since it was undone).
public struct SkippedPart: Equatable, Sendable, Encodable {
    /// What the part is about: `title`, `done` or `item` (the item as a whole: removing or
    /// restoring it).
    public var field: String
    /// The item's id.
    public var item: UUID
    /// The item's title now, or as the step knew it if it is gone.
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

    /// Whether both name the same field of the same item.
    func isSamePart(as other: SkippedPart) -> Bool {
        item == other.item && field == other.field
    }
}

/// A move through one person's history applied to a list other people changed too: the
/// move is made on the person's own view of the list (the version their history holds), and
/// what it changed, item by item and field by field, is applied to the current list where
/// that still holds what the person's view held; everything else is skipped and reported.
///
/// This is the item-level stand-in for the engine's `undo(onConflict:)` (WRITERS.md): the
/// same rule (a location is reverted iff it still holds what the step left there), at the
/// granularity of the todo's fields.
struct SelectiveMove {
    /// The list after the move.
    var result: TodoList
    /// The parts skipped (without author: the store fills it in).
    var skipped: [SkippedPart]

    /// - Parameters:
    ///   - view: The person's view before the move (their history's present).
    ///   - moved: Their view after the move.
    ///   - current: The list as it is now, with everyone's changes.
    init(view: TodoList, moved: TodoList, current: TodoList) {
        if OtherWriters.sameItems(view, current) {
            result = moved
            skipped = []
            return
        }
        let before = Dictionary(view.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(moved.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var items = Array(current.items)
        var skipped: [SkippedPart] = []
        func index(of id: UUID) -> Int? { items.firstIndex { $0.id == id } }

        // Items the move removes (undoing an add): only if nobody changed them since.
        for old in view.items where after[old.id] == nil {
            guard let at = index(of: old.id) else { continue }
            if items[at] == old {
                items.remove(at: at)
            } else {
                skipped.append(SkippedPart(field: "item", item: old.id, title: items[at].title, removed: false))
            }
        }
        // Fields the move changes, on items both versions hold.
        for new in moved.items {
            guard let old = before[new.id] else { continue }
            guard old.title != new.title || old.isDone != new.isDone else { continue }
            guard let at = index(of: new.id) else {
                skipped.append(SkippedPart(field: old.title != new.title ? "title" : "done", item: new.id, title: old.title, removed: true))
                continue
            }
            if old.title != new.title {
                if items[at].title == old.title {
                    items[at].title = new.title
                } else {
                    skipped.append(SkippedPart(field: "title", item: new.id, title: items[at].title, removed: false))
                }
            }
            if old.isDone != new.isDone {
                if items[at].isDone == old.isDone {
                    items[at].isDone = new.isDone
                } else {
                    skipped.append(SkippedPart(field: "done", item: new.id, title: items[at].title, removed: false))
                }
            }
        }
        // Items the move brings back (undoing a removal) and items it moves: each placed
        // after the item before it in the moved view, in that view's order.
        let placed = Self.itemsToPlace(view: view, moved: moved)
        for (offset, item) in moved.items.enumerated() where placed.contains(item.id) {
            if let at = index(of: item.id) {
                if before[item.id] == nil { continue }
                let existing = items.remove(at: at)
                items.insert(existing, at: Self.slot(after: offset, in: moved, among: items))
            } else if before[item.id] == nil {
                items.insert(item, at: Self.slot(after: offset, in: moved, among: items))
            }
        }
        result = TodoList(items: items)
        self.skipped = skipped
    }

    /// The ids the move inserts, and those it moves: the items of both views off their
    /// longest common order.
    private static func itemsToPlace(view: TodoList, moved: TodoList) -> Set<UUID> {
        let oldIndex = Dictionary(view.items.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var result = Set<UUID>()
        var common: [(id: UUID, index: Int)] = []
        for item in moved.items {
            if let index = oldIndex[item.id] { common.append((item.id, index)) } else { result.insert(item.id) }
        }
        // Longest increasing run of old indices (patience sorting): those kept their order.
        var tails: [Int] = []
        var tailOf: [Int] = []
        var previous = Array(repeating: -1, count: common.count)
        for (position, entry) in common.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if common[tails[middle]].index < entry.index { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
            tailOf.append(low)
        }
        var kept = Set<UUID>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            kept.insert(common[cursor].id)
            cursor = previous[cursor]
        }
        for entry in common where !kept.contains(entry.id) { result.insert(entry.id) }
        return result
    }

    /// Where to insert the item at `offset` of `moved` into `items`: after the nearest item
    /// before it in `moved` that `items` holds, else before the nearest one after it, else at
    /// the end (where a new item goes).
    private static func slot(after offset: Int, in moved: TodoList, among items: [TodoItem]) -> Int {
        var before = offset - 1
        while before >= 0 {
            let id = moved.items[before].id
            if let at = items.firstIndex(where: { $0.id == id }) { return at + 1 }
            before -= 1
        }
        var after = offset + 1
        while after < moved.items.count {
            let id = moved.items[after].id
            if let at = items.firstIndex(where: { $0.id == id }) { return at }
            after += 1
        }
        return items.count
    }
}

/// The actions a store was sent, in order: the server store records a command's actions on
/// the caller's own view as well (see ``OtherWriters/replaysOnView(_:view:current:)``).
final class ActionLog: @unchecked Sendable {
    // @unchecked: one command runs on one thread; the lock makes a misuse safe anyway.
    private let lock = NSLock()
    private var logged: [UndoableAction<TodoAction>] = []
    private var movedOver: [ReversionConflict] = []

    var actions: [UndoableAction<TodoAction>] {
        lock.lock()
        defer { lock.unlock() }
        return logged
    }

    func append(_ action: UndoableAction<TodoAction>) {
        lock.lock()
        logged.append(action)
        lock.unlock()
    }

    func clear() {
        lock.lock()
        logged.removeAll()
        movedOver.removeAll()
        lock.unlock()
    }

    /// What the history moves sent since the last `clear()` left in place, because an
    /// absorbed change (someone else's) wrote there since the step; each once.
    var conflicts: [ReversionConflict] {
        lock.lock()
        defer { lock.unlock() }
        return movedOver
    }

    func append(_ conflicts: [ReversionConflict]) {
        lock.lock()
        for conflict in conflicts where !movedOver.contains(conflict) { movedOver.append(conflict) }
        lock.unlock()
    }
}

/// The todo's undoable reducer, writing down each action it is sent.
struct LoggingReducer: Reducer {
    let base: Undoable<TodoReducer>
    let log: ActionLog

    func reduce(into state: inout UndoableState<TodoList>, action: UndoableAction<TodoAction>) -> Effect<UndoableAction<TodoAction>> {
        log.append(action)
        let effect = base.reduce(into: &state, action: action)
        switch action {
        case .action, .transaction:
            // Not a move: `lastConflicts` still speaks of an earlier one, if any.
            break
        default:
            log.append(state.lastConflicts)
        }
        return effect
    }
}
