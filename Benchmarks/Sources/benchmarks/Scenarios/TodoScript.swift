import Foundation

/// `todo-script`: `todo` reading a script of K lines on standard input, one process for the
/// whole script, each line its own transaction, acknowledged once on disk.
/// Implementations: `script-add`, K `add` lines on a list of N items with 100 history steps;
/// `script-from-empty`, the same script from an empty list (N is ignored; it runs at the
/// first size only); `script-edit`, K one-title `edit` lines at random positions of N items
/// with a history limit that keeps every step. Figures: ms per line, the whole script's
/// seconds, and for `script-edit` how many bytes the data file grew per step (the database
/// and its write-ahead log after the process ended, before against after).
struct TodoScript: Scenario {

    static let perLine = FigureColumn(key: "ms_per_line", header: "ms/line")
    static let total = FigureColumn(key: "total_s", header: "total s")
    static let diskBytes = FigureColumn(key: "disk_bytes_per_step", header: "disk B/step")
    static let historySteps = 100

    let name = "todo-script"
    let impls = ["script-add", "script-from-empty", "script-edit"]
    let figures = [perLine, total, diskBytes]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([1_000, 10_000, 100_000], [1_000, 10_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = TodoProcess.binary() else { return .skipped(reason: TodoProcess.missing) }
        if impl == "script-from-empty", n != 1_000 {
            return .skipped(reason: "script-from-empty does not depend on N; it runs at N=1,000")
        }
        if impl != "script-from-empty", k > 1_000 {
            return .skipped(reason: "\(impl) measures per line; K=1,000 is enough")
        }
        let directory = TodoProcess.temporaryDirectory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.db").path
        var generator = SeededGenerator(seed: seed)
        let start = impl == "script-from-empty" ? 0 : n
        if start > 0 {
            try TodoProcess.prepare(binary, at: path, items: start, steps: min(Self.historySteps, start), using: &generator, scenario: name)
        }
        let script = directory.appendingPathComponent("script.txt")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let lines = (0..<k).map { line in
                // New titles as long as the old ones: a longer title would grow the item rows
                // and split their pages, which is not the history's growth.
                impl == "script-edit"
                    ? "edit \(generator.next(upperBound: UInt64(start)) + 1) \(TodoFixture.text(length: 30, using: &generator))\n"
                    : "add \(TodoFixture.text(length: 30, using: &generator)) \(line)\n"
            }
            try Data(lines.joined().utf8).write(to: script)
        } catch {
            throw BenchmarkFailure("\(name): could not write the script: \(error)")
        }
        // Every step kept, so the file's growth is the steps' own size, not pages the limit
        // freed and the next steps reused.
        let limit = impl == "script-edit" ? ["--history-limit", "\(Self.historySteps + k)"] : []
        let sizeBefore = Self.bytesOnDisk(path)
        var stopwatch = Stopwatch()
        let (status, output) = try stopwatch.measure { () throws(BenchmarkFailure) in
            try TodoProcess.run(binary, ["--file", path] + limit, input: script, scenario: name)
        }
        let sizeAfter = Self.bytesOnDisk(path)
        let acknowledged = output.split(separator: "\n").count
        guard status == 0, acknowledged == k else {
            throw BenchmarkFailure("\(name): the script exited \(status) with \(acknowledged) of \(k) lines acknowledged")
        }
        let shown = try TodoProcess.count(binary, path: path, scenario: name)
        let expected = impl == "script-edit" ? start : start + k
        guard shown == expected else {
            throw BenchmarkFailure("\(name): after the script, `todo list` shows \(shown) items, not \(expected)")
        }
        var figures = [
            Self.perLine.key: TodoProcess.milliseconds(stopwatch, per: k),
            Self.total.key: TodoProcess.milliseconds(stopwatch) / 1000,
        ]
        if impl == "script-edit" {
            figures[Self.diskBytes.key] = Double(sizeAfter - sizeBefore) / Double(k)
        }
        return .measured(figures)
    }

    /// The bytes of the database at `path` and of its write-ahead log, if one is left.
    private static func bytesOnDisk(_ path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
            return total + (size ?? 0)
        }
    }

    /// Issue 14: a scripted `add` at N = 100,000 ≤ 5 ms per line; a 10,000-line script from
    /// an empty list ≤ 30 s; the file grows by a few hundred bytes per one-title edit (checked
    /// as under a thousand), whatever the list size.
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
            case ("script-edit", _, _):
                return result.figures[Self.diskBytes.key].map {
                    RatioCheck(target: "14", description: "disk bytes per one-title edit, N=\(result.n.grouped)", value: $0, limit: 999)
                }
            default:
                return nil
            }
        } + flatness(of: results)
    }

    /// "Whatever the list size": the growth per edit at the largest N against the smallest,
    /// within 25 %.
    private func flatness(of results: [BenchmarkResult]) -> [RatioCheck] {
        let edits = results.filter { $0.impl == "script-edit" && $0.figures[Self.diskBytes.key] != nil }.sorted { $0.n < $1.n }
        guard let smallest = edits.first, let largest = edits.last, largest.n > smallest.n,
              let small = smallest.figures[Self.diskBytes.key], let large = largest.figures[Self.diskBytes.key], small > 0
        else { return [] }
        return [RatioCheck(target: "14", description: "disk bytes per edit, N=\(largest.n.grouped) / N=\(smallest.n.grouped)", value: large / small, limit: 1.25)]
    }
}
