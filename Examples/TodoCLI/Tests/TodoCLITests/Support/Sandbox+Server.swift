import Foundation
import Testing

extension Sandbox {

    /// A sandbox whose runs use a new database of the throwaway server (`TODO_DATABASE`), with
    /// that database's connection string: the start of every server end-to-end test.
    static func onNewServerDatabase() throws -> (Sandbox, String) {
        let todo = try Sandbox()
        let conninfo = try ThrowawayPostgres.newDatabase()
        todo.environment["TODO_DATABASE"] = conninfo
        return (todo, conninfo)
    }

    /// The list's titles as `person` sees them (`list --json`), expecting the run to succeed.
    func titles(as person: String = "reader") throws -> [String] {
        let result = try run(["--as", person, "list", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([ListedItem].self, from: Data(result.stdout.utf8)).map(\.title)
    }
}
