import Foundation

/// `todo-script`: `todo` reading a script of K `add` lines on standard input, one process
/// for the whole script, each line its own transaction, acknowledged once on disk.
/// Implementations: `script-add` on a list of N items with 100 history steps, and
/// `script-from-empty`, the same script from an empty list (N is ignored; it runs at the
/// first size only). Figures: ms per line and the whole script's seconds.
struct TodoScript: Scenario {

    static let perLine = FigureColumn(key: "ms_per_line", header: "ms/line")
    static let total = FigureColumn(key: "total_s", header: "total s")
    static let historySteps = 100

    let name = "todo-script"
    let impls = ["script-add", "script-from-empty"]
    let figures = [perLine, total]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([1_000, 10_000, 100_000], [1_000, 10_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = TodoProcess.binary() else { return .skipped(reason: TodoProcess.missing) }
        if impl == "script-from-empty", n != 1_000 {
            return .skipped(reason: "script-from-empty does not depend on N; it runs at N=1,000")
        }
        if impl == "script-add", k > 1_000 {
            return .skipped(reason: "script-add measures per line; K=1,000 is enough")
        }
        let directory = TodoProcess.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.db").path
        var generator = SeededGenerator(seed: seed)
        let start = impl == "script-add" ? n : 0
        if start > 0 {
            try TodoProcess.prepare(binary, at: path, items: start, steps: min(Self.historySteps, start), using: &generator, scenario: name)
        }
        let script = directory.appendingPathComponent("script.txt")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data((0..<k).map { "add \(TodoFixture.text(length: 30, using: &generator)) \($0)\n" }.joined().utf8).write(to: script)
        } catch {
            throw BenchmarkFailure("\(name): could not write the script: \(error)")
        }
        var stopwatch = Stopwatch()
        let (status, output) = try stopwatch.measure { () throws(BenchmarkFailure) in
            try TodoProcess.run(binary, ["--file", path], input: script, scenario: name)
        }
        let acknowledged = output.split(separator: "\n").count
        guard status == 0, acknowledged == k else {
            throw BenchmarkFailure("\(name): the script exited \(status) with \(acknowledged) of \(k) lines acknowledged")
        }
        let shown = try TodoProcess.count(binary, path: path, scenario: name)
        guard shown == start + k else {
            throw BenchmarkFailure("\(name): after the script, `todo list` shows \(shown) items, not \(start + k)")
        }
        return .measured([
            Self.perLine.key: TodoProcess.milliseconds(stopwatch, per: k),
            Self.total.key: TodoProcess.milliseconds(stopwatch) / 1000,
        ])
    }

    /// Issue 14: a scripted `add` at N = 100,000 ≤ 5 ms per line; a 10,000-line script from
    /// an empty list ≤ 30 s.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        results.compactMap { result in
            switch (result.impl, result.n, result.k) {
            case ("script-add", 100_000, _):
                return result.figures[Self.perLine.key].map {
                    RatioCheck(target: "14", description: "scripted add ms/line, N=100,000", value: $0, limit: 5)
                }
            case ("script-from-empty", _, 10_000):
                return result.figures[Self.total.key].map {
                    RatioCheck(target: "14", description: "10,000-line script from empty, s", value: $0, limit: 30)
                }
            default:
                return nil
            }
        }
    }
}
