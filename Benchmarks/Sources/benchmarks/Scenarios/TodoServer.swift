import Foundation

/// `todo-server`: the `todo` binary on a list shared on a PostgreSQL server, against the same
/// commands on an SQLite file, in one run: `server-add`, `server-list`, `server-undo` and
/// `sqlite-add`, `sqlite-list`, `sqlite-undo`, each a whole process as in `todo-startup`, on a
/// list of N items with 100 history steps. Figure: `ms`, the median of several runs.
///
/// The server is the database `TODO_BENCH_DATABASE` names (a connection string, as for
/// `todo --database`); the benchmark starts no server, and the server runs are skipped,
/// saying so, without one. Its list is replaced by each run's (through `todo import`), so
/// give it a database of its own.
struct TodoServer: Scenario {

    static let milliseconds = FigureColumn(key: "ms", header: "ms (median)")
    static let historySteps = 100
    static let runs = 5
    /// The variable that names the server's database.
    static let variable = "TODO_BENCH_DATABASE"
    /// Whose history the server runs use: one name, so each run's import starts it afresh.
    static let person = "benchmark"

    let name = "todo-server"
    let impls = ["server-add", "server-list", "server-undo", "sqlite-add", "sqlite-list", "sqlite-undo"]
    let figures = [milliseconds]

    /// The connection string `TODO_BENCH_DATABASE` gives, or `nil` when it is unset or empty.
    static func database() -> String? {
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Why a server run is skipped without ``database()``.
    static let noServer = "no server: set \(variable) to the connection string of a database this benchmark may fill (it starts no server)"

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [Self.historySteps]) : ([1_000, 10_000, 100_000], [Self.historySteps])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = TodoProcess.binary() else { return .skipped(reason: TodoProcess.missing) }
        let onServer = impl.hasPrefix("server-")
        let database = Self.database()
        if onServer, database == nil { return .skipped(reason: Self.noServer) }
        let directory = TodoProcess.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = onServer
            ? ["--database", database ?? "", "--as", Self.person]
            : ["--file", directory.appendingPathComponent("todo.db").path]
        var generator = SeededGenerator(seed: seed)
        let steps = min(k, n)
        try TodoProcess.prepare(binary, store: store, in: directory, items: n, steps: steps, using: &generator, scenario: name)

        let command = impl.split(separator: "-").last.map(String.init) ?? "list"
        let median = try TodoProcess.medianMilliseconds(
            of: command, binary, store: store, items: n, steps: steps, runs: Self.runs, impl: impl, scenario: name
        )
        return .measured([Self.milliseconds.key: median])
    }

    /// Issue 25: at N = 100,000, each server command within 3× the same command on SQLite.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        results.compactMap { result in
            guard result.n == 100_000, result.impl.hasPrefix("server-"),
                  let server = result.figures[Self.milliseconds.key],
                  let file = results.first(where: { $0.n == result.n && $0.impl == "sqlite-" + result.impl.dropFirst("server-".count) })?.figures[Self.milliseconds.key],
                  file > 0
            else { return nil }
            let command = result.impl.dropFirst("server-".count)
            return RatioCheck(target: "25", description: "todo \(command): server / sqlite, N=100,000, \(Self.historySteps) history steps", value: server / file, limit: 3)
        }
    }
}
