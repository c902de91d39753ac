import Foundation
import Revertible

/// The `items` table: reading the whole list in order, and writing one command's
/// ``ItemChanges``.
enum ItemRows {

    /// Every item in list order, with the order key of each.
    static func load(from database: Database) throws(DataFileProblem) -> (list: TodoList, keys: [Int64]) {
        var items: [TodoItem] = []
        var keys: [Int64] = []
        do {
            let statement = try database.statement("SELECT position, id, title, done FROM items ORDER BY position")
            try statement.bind()
            defer { _ = try? statement.bind() }
            while try statement.step() {
                let key = statement.integer(0)
                guard let id = statement.withText(1, { UUID(parsingUTF8: $0) }) else {
                    throw DataFileProblem.damaged("item \(items.count + 1) has an id that is not a UUID")
                }
                let title = statement.text(2) ?? ""
                items.append(TodoItem(id: id, title: title, isDone: statement.integer(3) != 0))
                keys.append(key)
            }
        } catch let problem as DataFileProblem {
            throw problem
        } catch let error as DatabaseError {
            throw DataFileProblem(error)
        } catch {
            throw .damaged(String(describing: error))
        }
        return (TodoList(items: TreeArray(items)), keys)
    }

    /// Writes `changes`, whose positions are in `list`: deletions first, so that a row taking
    /// a new key never meets the key it is leaving, nor one another row is leaving.
    static func write(_ changes: ItemChanges, of list: TodoList, to database: Database) throws(DatabaseError) {
        guard !changes.isEmpty else { return }
        let delete = try database.statement("DELETE FROM items WHERE id = ?")
        for id in changes.deleted {
            try delete.bind(.text(id.uuidString)).run()
        }
        let insert = try database.statement("INSERT INTO items (position, id, title, done) VALUES (?, ?, ?, ?)")
        for position in changes.inserted {
            let item = list.items[position]
            try insert.bind(
                .integer(changes.keys[position]), .text(item.id.uuidString), .text(item.title), .integer(item.isDone ? 1 : 0)
            ).run()
        }
        let update = try database.statement("UPDATE items SET title = ?, done = ? WHERE id = ?")
        for position in changes.updated {
            let item = list.items[position]
            try update.bind(.text(item.title), .integer(item.isDone ? 1 : 0), .text(item.id.uuidString)).run()
        }
    }

    /// Replaces every row with `list`, keys spaced afresh: for imports.
    static func replaceAll(with list: TodoList, in database: Database) throws(DatabaseError) -> [Int64] {
        try database.execute("DELETE FROM items", operation: "write the list")
        let keys = ItemChanges.freshKeys(count: list.items.count)
        let insert = try database.statement("INSERT INTO items (position, id, title, done) VALUES (?, ?, ?, ?)")
        for (item, key) in zip(list.items, keys) {
            try insert.bind(.integer(key), .text(item.id.uuidString), .text(item.title), .integer(item.isDone ? 1 : 0)).run()
        }
        return keys
    }
}
