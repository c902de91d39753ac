/// `PRAGMA quick_check`: SQLite's check of every page of the file (the b-trees, the free
/// list, the records' formats), without the costlier index-against-table comparison of
/// `integrity_check`.
///
/// Run once per process before its first write that reads the whole list: SQLite notices damage in the pages it reads, but a
/// write reuses free pages and index pages a read never touched, and writing into a damaged
/// file spreads the damage. A one-shot command near the ends of a long list skips it while
/// the file has no free pages (see `TodoDataFile.writeNearTheEnds`): it costs 20 to 40 ms at
/// 100,000 items, more than the rest of such a command. A failed check leaves the file as it
/// was.
///
/// While the file has no free pages, only the tables a command writes in place are checked
/// (`items` with its index of ids, and `meta`): the history's rows are written at the ends of
/// their b-trees (a new step, the oldest dropped), pages the write itself reads and SQLite
/// checks, and a whole check would read every step the command otherwise never reads (95 ms at
/// 100,000 steps, growing with the history). `todo check` checks everything. A file keeps no
/// free pages (``FreePages``), so the whole check runs only after another program freed some.
enum QuickCheck {
    /// Checks every page, or only `tables` and their indexes.
    static func run(_ database: Database, tables: [String]? = nil) throws(DataFileProblem) {
        for query in tables.map({ $0.map { "PRAGMA quick_check(\($0))" } }) ?? ["PRAGMA quick_check(1)"] {
            try run(query, in: database)
        }
    }

    private static func run(_ query: String, in database: Database) throws(DataFileProblem) {
        do {
            let statement = try database.statement(query)
            try statement.bind()
            guard try statement.step() else { return }
            let result = statement.text(0) ?? ""
            try statement.bind()
            guard result == "ok" else {
                // SQLite's report spans lines ("*** in database main ***\nPage 3: ..."): one
                // line for the message.
                let detail = result.split(separator: "\n").filter { !$0.hasPrefix("***") }.joined(separator: "; ")
                throw DataFileProblem.damaged(detail)
            }
        } catch {
            throw DataFileProblem(describing: error)
        }
    }
}
