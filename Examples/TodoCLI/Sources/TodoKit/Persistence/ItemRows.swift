import CSQLite
import Foundation
import Revertible

/// The `items` table: reading the whole list in order, and writing one command's
/// ``ItemChanges``.
enum ItemRows {

    /// Every item in list order, with the order key of each.
    static func load(from database: Database) throws(DataFileProblem) -> (list: TodoList, keys: [Int64]) {
        var items: [TodoItem] = []
        var keys: [Int64] = []
        try read("SELECT position, id, title, done, \(try checksumColumn(in: database)) FROM items ORDER BY position", from: database, firstPosition: 1, into: &items, keys: &keys)
        return (TodoList(items: TreeArray(items)), keys)
    }

    /// The first and the last `rows` items with their order keys, and a ``Placeholders``
    /// stand-in for every item between them: a list of the right length for a command that
    /// reads and writes only near its ends (`add`, the undo of a recent `add`), without
    /// reading every row. `nil` when the list has no more than `2 × rows` items: then it is
    /// read whole.
    static func loadEnds(from database: Database, rows: Int) throws(DataFileProblem) -> PartialList? {
        let count: Int
        do {
            count = Int(try database.integer("SELECT count(*) FROM items") ?? 0)
        } catch {
            throw DataFileProblem(error)
        }
        guard count > 2 * rows else { return nil }
        let checksum = try checksumColumn(in: database)
        var head: [TodoItem] = []
        var headKeys: [Int64] = []
        try read("SELECT position, id, title, done, \(checksum) FROM items ORDER BY position LIMIT \(rows)", from: database, firstPosition: 1, into: &head, keys: &headKeys)
        var tail: [TodoItem] = []
        var tailKeys: [Int64] = []
        try read("SELECT position, id, title, done, \(checksum) FROM items ORDER BY position DESC LIMIT \(rows)", from: database, firstPosition: count, descending: true, into: &tail, keys: &tailKeys)
        guard head.count == rows, tail.count == rows else {
            throw DataFileProblem.damaged("the items table changed while it was read")
        }
        let placeholders = Placeholders()
        let middle = count - 2 * rows
        var items = head
        items.reserveCapacity(count)
        items += (0..<middle).lazy.map { placeholders.item(at: $0) }
        items += tail.reversed()
        // The stand-ins' keys are never written (see `Placeholders.allowWriting`); any value
        // between their neighbours' keys keeps the array the right length.
        var keys = headKeys
        keys.reserveCapacity(count)
        keys += repeatElement(headKeys[rows - 1], count: middle)
        keys += tailKeys.reversed()
        return PartialList(list: TodoList(items: TreeArray(items)), keys: keys, placeholders: placeholders)
    }

    /// Appends the rows of `sql` (position, id, title, done, checksum) to `items` and `keys`,
    /// checking each row that has a checksum; `firstPosition` is the 1-based list position of
    /// the first row, for messages.
    private static func read(
        _ sql: String,
        from database: Database,
        firstPosition: Int,
        descending: Bool = false,
        into items: inout [TodoItem],
        keys: inout [Int64]
    ) throws(DataFileProblem) {
        do {
            let statement = try database.statement(sql)
            try statement.bind()
            defer { _ = try? statement.bind() }
            var position = firstPosition
            while try statement.step() {
                let key = statement.integer(0)
                if statement.type(4) != SQLITE_NULL {
                    guard checksum(ofRowIn: statement) == statement.integer(4) else {
                        throw DataFileProblem.damaged("the row of item \(position) does not match its checksum: changed on disk, not through SQLite")
                    }
                }
                guard let id = statement.withText(1, { UUID(parsingUTF8: $0) }) else {
                    throw DataFileProblem.damaged("item \(position) has an id that is not a UUID")
                }
                let title = statement.text(2) ?? ""
                items.append(TodoItem(id: id, title: title, isDone: statement.integer(3) != 0))
                keys.append(key)
                position += descending ? -1 : 1
            }
        } catch {
            throw DataFileProblem(describing: error)
        }
    }

    /// Writes `changes`, whose positions are in `list`: deletions first, so that a row taking
    /// a new key never meets the key it is leaving, nor one another row is leaving.
    ///
    /// Each delete and update must change exactly one row: one that changes none met a row
    /// the index of ids does not know (damage `PRAGMA quick_check` does not look for), and
    /// the command fails, its transaction rolled back, instead of saving a history that the
    /// rows contradict.
    static func write(_ changes: ItemChanges, of list: TodoList, to database: Database) throws {
        guard !changes.isEmpty else { return }
        let delete = try database.statement("DELETE FROM items WHERE id = ?")
        for id in changes.deleted {
            try delete.bind(.text(id.uuidString)).run()
            try expectOneRow(changed: database, id: id)
        }
        let insert = try database.statement("INSERT INTO items (position, id, title, done, checksum) VALUES (?, ?, ?, ?, ?)")
        for position in changes.inserted {
            let item = list.items[position]
            try insert.bind(
                .integer(changes.keys[position]), .text(item.id.uuidString), .text(item.title), .integer(item.isDone ? 1 : 0), .integer(checksum(of: item))
            ).run()
        }
        let update = try database.statement("UPDATE items SET title = ?, done = ?, checksum = ? WHERE id = ?")
        for position in changes.updated {
            let item = list.items[position]
            try update.bind(.text(item.title), .integer(item.isDone ? 1 : 0), .integer(checksum(of: item)), .text(item.id.uuidString)).run()
            try expectOneRow(changed: database, id: item.id)
        }
    }

    private static func expectOneRow(changed database: Database, id: UUID) throws(DataFileProblem) {
        guard database.changes == 1 else {
            throw .damaged("the row of item \(id.uuidString) cannot be found by its id (a damaged index)")
        }
    }

    /// Replaces every row with `list`, keys spaced afresh: for imports.
    static func replaceAll(with list: TodoList, in database: Database) throws(DatabaseError) -> [Int64] {
        try database.execute("DELETE FROM items", operation: "write the list")
        let keys = ItemChanges.freshKeys(count: list.items.count)
        let insert = try database.statement("INSERT INTO items (position, id, title, done, checksum) VALUES (?, ?, ?, ?, ?)")
        for (item, key) in zip(list.items, keys) {
            try insert.bind(.integer(key), .text(item.id.uuidString), .text(item.title), .integer(item.isDone ? 1 : 0), .integer(checksum(of: item))).run()
        }
        return keys
    }

    // MARK: - Checksums

    /// The checksum of a row: CRC-32 of its id, title and done flag as stored, each ended by
    /// a zero byte (which UTF-8 text in a row cannot hold unescaped, so no two rows share
    /// their bytes). It finds any flipped bit and any run of flipped bits up to 32 long.
    static func checksum(id: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>, done: Int64) -> Int64 {
        var crc = CRC32()
        var separator: UInt8 = 0
        var flag = UInt8(truncatingIfNeeded: done)
        crc.update(UnsafeRawBufferPointer(id))
        withUnsafeBytes(of: &separator) { crc.update($0) }
        crc.update(UnsafeRawBufferPointer(title))
        withUnsafeBytes(of: &separator) { crc.update($0) }
        withUnsafeBytes(of: &flag) { crc.update($0) }
        return Int64(crc.value)
    }

    /// The checksum of the current row of `statement`, whose columns 1, 2 and 3 are the id,
    /// the title and the done flag, from the bytes as stored.
    private static func checksum(ofRowIn statement: Statement) -> Int64 {
        statement.withText(1) { id in statement.withText(2) { title in checksum(id: id, title: title, done: statement.integer(3)) } }
    }

    /// The checksum of the row `item` is written as.
    static func checksum(of item: TodoItem) -> Int64 {
        var id = item.id.uuidString
        var title = item.title
        return id.withUTF8 { id in title.withUTF8 { title in checksum(id: id, title: title, done: item.isDone ? 1 : 0) } }
    }

    /// The column that holds a row's checksum, or `NULL` in a file an earlier `todo` wrote
    /// (schema 1, read as it is: reading never migrates).
    private static func checksumColumn(in database: Database) throws(DataFileProblem) -> String {
        do {
            return try database.integer("PRAGMA user_version") ?? 0 >= 2 ? "checksum" : "NULL"
        } catch {
            throw DataFileProblem(error)
        }
    }

    /// Gives every row without a checksum one, taking it as it is: for the rows of a file an
    /// earlier `todo` wrote, when it is migrated.
    static func addMissingChecksums(in database: Database) throws(DatabaseError) {
        let select = try database.statement("SELECT position, id, title, done FROM items WHERE checksum IS NULL")
        var sums: [(key: Int64, checksum: Int64)] = []
        while try select.step() {
            sums.append((select.integer(0), checksum(ofRowIn: select)))
        }
        let update = try database.statement("UPDATE items SET checksum = ? WHERE position = ?")
        for (key, sum) in sums {
            try update.bind(.integer(sum), .integer(key)).run()
        }
    }
}
