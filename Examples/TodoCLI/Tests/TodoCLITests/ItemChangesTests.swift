import Foundation
import Revertible
import Testing
import TestSupport
@testable import TodoKit

/// The rows a command writes: applied to a model of the `items` table, they always give the
/// new list, keys stay unique and in list order, and small changes write few rows.
@Suite("Item rows written per command")
struct ItemChangesTests {

    /// The `items` table: rows by id, as SQLite would hold them.
    struct Table {
        var rows: [UUID: (key: Int64, title: String, done: Bool)] = [:]

        /// Applies `changes` the way `ItemRows.write` does, failing on what SQLite would refuse.
        mutating func apply(_ changes: ItemChanges, of list: TreeArray<TodoItem>) {
            for id in changes.deleted {
                #expect(rows.removeValue(forKey: id) != nil, "deleting a row that is not there")
            }
            let usedKeys = Set(rows.values.map(\.key))
            for position in changes.inserted {
                let item = list[position]
                #expect(rows[item.id] == nil, "inserting an id twice")
                #expect(!usedKeys.contains(changes.keys[position]), "inserting a key that is taken")
                rows[item.id] = (changes.keys[position], item.title, item.isDone)
            }
            for position in changes.updated {
                let item = list[position]
                #expect(rows[item.id]?.key == changes.keys[position], "updating a row whose key changed")
                rows[item.id]?.title = item.title
                rows[item.id]?.done = item.isDone
            }
        }

        /// The rows in key order, as `SELECT ... ORDER BY position` reads them.
        var list: [TodoItem] {
            rows.sorted { $0.value.key < $1.value.key }.map { TodoItem(id: $0.key, title: $0.value.title, isDone: $0.value.done) }
        }
    }

    static func same(_ a: [TodoItem], _ b: TreeArray<TodoItem>) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.id == $1.id && $0.title == $1.title && $0.isDone == $1.isDone }
    }

    @Test("Random edits, moves, inserts, removals and returns to old versions", arguments: 1...20)
    func randomCommands(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var list = TreeArray((0..<Int.random(in: 0...300, using: &random)).map { TodoItem(id: UUID(), title: "item \($0)") })
        var keys = ItemChanges.freshKeys(count: list.count)
        var table = Table()
        for (item, key) in zip(list, keys) { table.rows[item.id] = (key, item.title, item.isDone) }
        var versions = [list]
        for step in 0..<200 {
            var after = list
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                after.append(TodoItem(id: UUID(), title: "new \(step)"))
            case 1 where !after.isEmpty:
                after[Int.random(in: 0..<after.count, using: &random)].title = "edited \(step)"
            case 2 where !after.isEmpty:
                after.remove(at: Int.random(in: 0..<after.count, using: &random))
            case 3 where !after.isEmpty:
                let item = after.remove(at: Int.random(in: 0..<after.count, using: &random))
                after.insert(item, at: Int.random(in: 0...after.count, using: &random))
            case 4:
                // Many inserts at one spot use up the gap between two keys.
                let spot = Int.random(in: 0...after.count, using: &random)
                for index in 0..<Int.random(in: 1...40, using: &random) {
                    after.insert(TodoItem(id: UUID(), title: "squeezed \(step).\(index)"), at: spot)
                }
            case 5:
                after.removeAll { _ in Int.random(in: 0..<10, using: &random) == 0 }
            case 6:
                // Undo and redo bring back an older version's items, in its order.
                after = versions.randomElement(using: &random)!
            default:
                if !after.isEmpty { after[Int.random(in: 0..<after.count, using: &random)].isDone.toggle() }
            }
            let changes = ItemChanges(before: list, beforeKeys: keys, after: after)
            table.apply(changes, of: after)
            #expect(Self.same(table.list, after), "seed \(seed), step \(step): the table is not the list")
            #expect(zip(changes.keys, changes.keys.dropFirst()).allSatisfy { $0 < $1 }, "seed \(seed), step \(step): keys out of order")
            list = after
            keys = changes.keys
            versions.append(after)
        }
    }

    @Test("One add, edit, removal or move writes one row, whatever the list's size")
    func smallChangesWriteOneRow() {
        let list = TreeArray((0..<10_000).map { TodoItem(id: UUID(), title: "item \($0)") })
        let keys = ItemChanges.freshKeys(count: list.count)
        func changes(_ edit: (inout TreeArray<TodoItem>) -> Void) -> ItemChanges {
            var after = list
            edit(&after)
            return ItemChanges(before: list, beforeKeys: keys, after: after)
        }
        let add = changes { $0.append(TodoItem(id: UUID(), title: "new")) }
        #expect(add.inserted == [10_000] && add.deleted.isEmpty && add.updated.isEmpty)
        let edit = changes { $0[5_000].title = "edited" }
        #expect(edit.updated == [5_000] && edit.inserted.isEmpty && edit.deleted.isEmpty)
        let remove = changes { $0.remove(at: 123) }
        #expect(remove.deleted == [list[123].id] && remove.inserted.isEmpty && remove.updated.isEmpty)
        let move = changes { $0.insert($0.remove(at: 9_000), at: 10) }
        #expect(move.deleted == [list[9_000].id] && move.inserted == [10] && move.updated.isEmpty)
        let nothing = changes { _ in }
        #expect(nothing.isEmpty)
    }
}
