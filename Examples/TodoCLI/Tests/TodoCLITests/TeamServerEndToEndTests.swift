import Foundation
import Testing
@testable import TodoKit

/// Issue 35's items about a team on one server list (4 to 9), end to end: the `todo` binary
/// on a new database of the tests' throwaway server, with other connections playing psql.
@Suite("A team on a server list (issue 35), end to end", .enabled(if: ThrowawayPostgres.isAvailable, ThrowawayPostgres.skipReason))
struct TeamServerEndToEndTests {

    /// A sandbox whose runs use a new database on the throwaway server.
    private func sharedList() throws -> (Sandbox, String) {
        let todo = try Sandbox()
        let conninfo = try ThrowawayPostgres.newDatabase()
        todo.environment["TODO_DATABASE"] = conninfo
        return (todo, conninfo)
    }

    private func titles(_ todo: Sandbox, as person: String = "reader") throws -> [String] {
        let result = try todo.run(["--as", person, "list", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([ListedItem].self, from: Data(result.stdout.utf8)).map(\.title)
    }

    // MARK: Item 8

    @Test("8: a skip note names the person whose change is in the way, not the caller whose later undo wrote it back")
    func skipNoteNamesTheRightPerson() throws {
        let (todo, _) = try sharedList()
        try todo.ok("--as", "alice", "add", "A")
        try todo.ok("--as", "alice", "edit", "1", "B")
        try todo.ok("--as", "bob", "edit", "1", "C")
        try todo.ok("--as", "alice", "edit", "1", "D")
        #expect(try todo.ok("--as", "alice", "undo").stdout == "Undid: edit \"C\" → \"D\"\n")
        let undo = try todo.run(["--as", "alice", "undo"])
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("the title of \"C\" (bob changed it since)"), "\(undo.stderr)")
        #expect(!undo.stderr.contains("alice changed"), "\(undo.stderr)")
        #expect(try titles(todo) == ["C"])
    }

    @Test("8: a database of schema version 2 is migrated: its item changes kept, and the notes right from then on")
    func itemChangesMigrateFromVersion2() throws {
        let (todo, conninfo) = try sharedList()
        // A database as version 2 of the todo made it, with one change of a title recorded.
        let admin = try PostgresConnection(conninfo)
        try admin.query("CREATE TABLE schema_version (version integer NOT NULL)")
        try admin.query("INSERT INTO schema_version VALUES (2)")
        for step in ServerSchema.migrations.prefix(2) {
            for statement in step { try admin.query(statement) }
        }
        try admin.query("INSERT INTO item_changes VALUES (gen_random_uuid(), 'title', 'carol', now())")
        try todo.ok("--as", "alice", "list")
        #expect(try admin.query("SELECT version FROM schema_version") == [[String(ServerSchema.version)]])
        #expect(try admin.query("SELECT count(*) FROM item_changes WHERE author = 'carol'") == [["1"]])
        try todo.ok("--as", "alice", "add", "A")
        try todo.ok("--as", "alice", "edit", "1", "B")
        try todo.ok("--as", "bob", "edit", "1", "C")
        try todo.ok("--as", "alice", "edit", "1", "D")
        try todo.ok("--as", "alice", "undo")
        let undo = try todo.run(["--as", "alice", "undo"])
        #expect(undo.stderr.contains("the title of \"C\" (bob changed it since)"), "\(undo.stderr)")
        let authors = try admin.query("SELECT author FROM item_changes WHERE field = 'title' ORDER BY author")
        #expect(authors == [["alice"], ["bob"], ["carol"]])
    }
}
