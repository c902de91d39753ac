import Foundation
import Revertible

/// A list read only at its ends (see ``ItemRows/loadEnds(from:rows:)``): the real items
/// there, and a stand-in for each item between them.
struct PartialList {
    /// The list: real items at the ends, ``Placeholders`` items between.
    var list: TodoList
    /// One order key per item; real for the real items only.
    var keys: [Int64]
    /// What tells a stand-in from a real item.
    var placeholders: Placeholders
}

/// Stand-ins for the items a command did not read: an item with an empty title and an id no
/// real item has (eight random bytes, the same for every stand-in of this process, then the
/// stand-in's index).
///
/// Nothing reads a stand-in's content without noticing: the history's checks compare the
/// items a step touches with the ones it was made from (a stand-in never matches), and a
/// command that would write a stand-in, or save one in a history step, is refused by
/// ``allowWriting(_:in:)`` and ``appears(in:)``; the caller then reads the whole list and
/// runs the command again.
struct Placeholders {
    /// The first eight bytes of every stand-in's id, as they lie in memory.
    private let prefix: UInt64
    /// The prefix as text, as it starts each stand-in's id in JSON: "XXXXXXXX-XXXX-XXXX-".
    private let text: Data

    init() {
        var random = SystemRandomNumberGenerator()
        prefix = random.next()
        text = Data(Self.uuid(prefix, 0).uuidString.prefix(19).utf8)
    }

    /// The stand-in for the `index`th unread item.
    func item(at index: Int) -> TodoItem {
        TodoItem(id: Self.uuid(prefix, UInt64(index)), title: "")
    }

    /// Whether `item` is a stand-in.
    func isPlaceholder(_ item: TodoItem) -> Bool {
        isPlaceholder(item.id)
    }

    /// Whether `id` is a stand-in's.
    func isPlaceholder(_ id: UUID) -> Bool {
        withUnsafeBytes(of: id.uuid) { $0.loadUnaligned(as: UInt64.self) } == prefix
    }

    /// Whether the rows `changes` writes are all real items whose order keys were computed
    /// from real neighbours: every written position holds a real item, and so do the
    /// positions next to each inserted one (whose keys a new key is placed between).
    func allowWriting(_ changes: ItemChanges, in items: TreeArray<TodoItem>) -> Bool {
        if changes.deleted.contains(where: isPlaceholder) { return false }
        if changes.updated.contains(where: { isPlaceholder(items[$0]) }) { return false }
        for position in changes.inserted {
            for neighbour in position - 1 ... position + 1 where items.indices.contains(neighbour) {
                if isPlaceholder(items[neighbour]) { return false }
            }
        }
        return true
    }

    /// Whether `bytes` (an encoded history step or outline) mentions a stand-in.
    func appears(in bytes: Data) -> Bool {
        bytes.range(of: text) != nil
    }

    private static func uuid(_ prefix: UInt64, _ index: UInt64) -> UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { buffer in
            buffer.storeBytes(of: prefix, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: index.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: raw)
    }
}
