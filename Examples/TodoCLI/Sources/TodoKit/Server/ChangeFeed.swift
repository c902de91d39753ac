import Foundation

/// What others changed on a shared list since it was last seen, read on a connection of its
/// own (so neither `todo watch` nor the shell's commands disturb the other's transactions).
///
/// The list as last seen is kept in memory with its version; the changes are the difference
/// to the list now (``ListChange/between(_:_:)``), with each one's author from the
/// `item_changes` table: its latest writer of that field. Comparing lists rather than
/// reading the log of versions means a watcher away for a while (a server restart) can still
/// say what it missed: the server trims its log to what some person's history needs.
final class ChangeFeed {
    /// The channel the server store's every committed change notifies, with the list's
    /// version as the payload.
    static let channel = "todo_changes"

    let conninfo: String
    /// The list's name for messages, without secrets.
    let displayName: String
    /// Whether the connection listens on ``channel`` (`todo watch`), or is only read when
    /// asked (the shell, between prompts).
    let listens: Bool
    private(set) var connection: PostgresConnection?
    /// The list as last seen, and its version.
    private(set) var seen: (version: Int64, list: TodoList)?

    init(conninfo: String, displayName: String, listens: Bool) {
        self.conninfo = conninfo
        self.displayName = displayName
        self.listens = listens
    }

    /// Connects (again), preparing the schema as any first command would, and listens when
    /// asked to: LISTEN first, then the list is read, so no change falls between the two.
    func connect() throws {
        connection = nil
        let fresh = try PostgresConnection(conninfo)
        try ServerSchema.prepare(fresh, name: displayName)
        if listens { try fresh.query("LISTEN \(Self.channel)") }
        connection = fresh
    }

    /// The changes since the list was last seen (none the first time, which only notes the
    /// list), leaving out those of `excluding`; the list now becomes the one seen. Reads only
    /// the version when it has not moved, so asking often costs little.
    func changes(excluding person: String? = nil) throws -> [ListChange] {
        if connection == nil || connection?.isConnected == false { try connect() }
        guard let connection else { return [] }
        try connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let version = try TodoServerStore.listVersion(connection)
            guard version != seen?.version else {
                try connection.query("COMMIT")
                return []
            }
            let list = try TodoServerStore.loadItems(connection).list
            var changes = seen.map { ListChange.between($0.list, list) } ?? []
            try Self.addAuthors(to: &changes, connection)
            try connection.query("COMMIT")
            seen = (version, list)
            if let person { changes.removeAll { $0.author == person } }
            return changes
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
    }

    /// Fills in each change's author: the latest writer of its item's field.
    static func addAuthors(to changes: inout [ListChange], _ connection: PostgresConnection) throws {
        guard !changes.isEmpty else { return }
        let ids = Set(changes.map(\.id))
        let rows = try connection.query(
            "SELECT DISTINCT ON (id, field) id::text, field, author FROM item_changes WHERE id = ANY($1::uuid[]) ORDER BY id, field, at DESC",
            ["{" + ids.map(\.uuidString).joined(separator: ",") + "}"]
        )
        var authors: [String: String] = [:]
        for row in rows {
            guard let id = row[0], let field = row[1], let author = row[2] else { continue }
            authors[id.lowercased() + "/" + field] = author
        }
        for index in changes.indices {
            changes[index].author = authors[changes[index].id.uuidString.lowercased() + "/" + changes[index].field]
        }
    }
}
