import Foundation

/// `todo-startup`: how long the `todo` binary takes, as a whole process (start, open, work,
/// commit, exit), on a data file of N items with 100 history steps (the default limit).
/// Implementations: `todo-list` (`todo list`, the read path), `todo-add` (`todo add`, one
/// item row and one step written) and `todo-undo` (`todo undo`, one step taken back).
/// Figure: `ms`, the median of several runs.
///
/// The file is prepared through the binary's interchange format (see ``TodoProcess``).
struct TodoStartup: Scenario {

    static let milliseconds = FigureColumn(key: "ms", header: "ms (median)")
    static let historySteps = 100
    static let runs = 9

    let name = "todo-startup"
    let impls = ["todo-list", "todo-add", "todo-undo"]
    let figures = [milliseconds]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [Self.historySteps]) : ([1_000, 10_000, 100_000], [Self.historySteps])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = TodoProcess.binary() else { return .skipped(reason: TodoProcess.missing) }
        let directory = TodoProcess.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.db").path
        var generator = SeededGenerator(seed: seed)
        let steps = min(k, n)
        try TodoProcess.prepare(binary, at: path, items: n, steps: steps, using: &generator, scenario: name)

        let command = impl.split(separator: "-").last.map(String.init) ?? "list"
        let median = try TodoProcess.medianMilliseconds(
            of: command, binary, store: ["--file", path], items: n, steps: steps, runs: Self.runs, impl: impl, scenario: name
        )
        return .measured([Self.milliseconds.key: median])
    }

    /// Issue 14: at N = 100,000, `todo add` and `todo undo` each ≤ 100 ms, `todo list`
    /// ≤ 300 ms (with 100 history steps).
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        results.compactMap { result in
            guard result.n == 100_000, let value = result.figures[Self.milliseconds.key] else { return nil }
            let command = result.impl.replacingOccurrences(of: "-", with: " ")
            let limit: Double = result.impl == "todo-list" ? 300 : 100
            return RatioCheck(target: "14", description: "\(command) ms, N=100,000, \(Self.historySteps) history steps", value: value, limit: limit)
        }
    }
}
