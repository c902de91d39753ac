import Foundation

/// `todo-long-history` (issue 37): one `todo` command as a whole process on a list of N items
/// whose file keeps K history steps, with a limit that keeps them all.
///
/// The file: N items imported without history, then a script of K one-title `edit` lines
/// (one process, each line its own transaction), so the list stays at N items however long
/// the history. Implementations: `add`, `undo`, `redo` (after an untimed `undo`), `edit` and
/// `done`, each run 9 times on a copy of the file. The files live in memory (`/dev/shm`, where
/// there is one), so that a flush costs nothing and what is measured is the command's own work,
/// not the disk's: the script of 100,000 lines flushes 100,000 times. Figures: the median wall time and
/// processor time of one command, its largest peak resident memory, and (for `add`, once per
/// size) the seconds the K-line script took.
struct TodoLongHistory: Scenario {

    static let wall = FigureColumn(key: "ms", header: "ms (median)")
    static let cpu = FigureColumn(key: "cpu_ms", header: "cpu ms (median)")
    static let peak = FigureColumn(key: "peak_kb", header: "peak KB")
    static let script = FigureColumn(key: "script_s", header: "K-line script s")
    static let runs = 9
    /// Above every K run, so no command trims.
    static let limit = "10000000"

    let name = "todo-long-history"
    let impls = ["add", "undo", "redo", "edit", "done"]
    let figures = [wall, cpu, peak, script]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [1_000, 5_000]) : ([1_000], [1_000, 20_000, 100_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = TodoProcess.binary() else { return .skipped(reason: TodoProcess.missing) }
        let prepared = try PreparedFiles.shared.file(binary: binary, n: n, k: k, seed: seed, scenario: name)
        let directory = TodoLongHistory.directory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.db").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: prepared.path, toPath: path)
        } catch {
            throw BenchmarkFailure("\(name): could not copy the prepared file: \(error)")
        }
        let store = ["--file", path, "--history-limit", Self.limit]
        var walls: [Double] = []
        var cpus: [Double] = []
        var peak = 0
        for run in 0..<Self.runs {
            let arguments: [String] = switch impl {
            case "add": ["add", "Benchmark item \(run)"]
            case "undo", "redo": [impl]
            case "edit": ["edit", "\(run + 1)", "Edited title \(run)"]
            default: ["done", "\(run + 1)"]
            }
            if impl == "redo" { _ = try TodoProcess.run(binary, store + ["undo"], scenario: name) }
            var stopwatch = Stopwatch()
            let outcome = try stopwatch.measure { () throws(BenchmarkFailure) in try TodoProcess.runMeasured(binary, store + arguments, scenario: name) }
            guard outcome.status == 0 else {
                throw BenchmarkFailure("\(name): `todo \(arguments.joined(separator: " "))` exited \(outcome.status) at K=\(k)")
            }
            walls.append(TodoProcess.milliseconds(stopwatch))
            cpus.append(outcome.cpuMilliseconds)
            peak = max(peak, outcome.peakKilobytes)
        }
        let shown = try TodoProcess.count(binary, store: ["--file", path], scenario: name)
        let expected = impl == "add" ? n + Self.runs : n
        try check(shown == expected, "\(name) \(impl): the list has \(shown) items after the runs, not \(expected)")
        var figures = [Self.wall.key: median(walls), Self.cpu.key: median(cpus), Self.peak.key: Double(peak)]
        if impl == "add" { figures[Self.script.key] = prepared.scriptSeconds }
        return .measured(figures)
    }

    /// A fresh directory in memory where there is a memory file system, else the temporary one.
    static func directory(_ name: String) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue else {
            return TodoProcess.temporaryDirectory(name)
        }
        return URL(fileURLWithPath: "/dev/shm").appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    private func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// Issue 37: each command at the largest K within 1.5× of the same at the smallest, at most
    /// 50 ms of processor time, peak memory within 1.5×; a 20,000-line script at most 90 s.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        for impl in impls {
            let runs = results.filter { $0.impl == impl }.sorted { $0.k < $1.k }
            guard let first = runs.first else { continue }
            for last in runs.dropFirst() {
                for (column, what) in [(Self.cpu, "cpu"), (Self.wall, "wall"), (Self.peak, "peak memory")] {
                    if let small = first.figures[column.key], let large = last.figures[column.key], small > 0 {
                        checks.append(RatioCheck(target: "37", description: "todo \(impl) \(what), K=\(last.k.grouped) / K=\(first.k.grouped)", value: large / small, limit: 1.5))
                    }
                }
                if let cpu = last.figures[Self.cpu.key] {
                    checks.append(RatioCheck(target: "37", description: "todo \(impl) cpu ms, K=\(last.k.grouped)", value: cpu, limit: 50))
                }
            }
        }
        if let script = results.first(where: { $0.impl == "add" && $0.k == 20_000 })?.figures[Self.script.key] {
            checks.append(RatioCheck(target: "37", description: "20,000-line edit script, s", value: script, limit: 90))
        }
        return checks
    }
}

/// Data files prepared once per size and copied for each run: a 100,000-line script is too
/// long to repeat for every implementation.
final class PreparedFiles: @unchecked Sendable {
    // Sound to share: `files` is only touched under `lock`.
    static let shared = PreparedFiles()
    private let lock = NSLock()
    private var files: [String: (path: String, scriptSeconds: Double)] = [:]

    func file(binary: String, n: Int, k: Int, seed: UInt64, scenario: String) throws(BenchmarkFailure) -> (path: String, scriptSeconds: Double) {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(n) \(k) \(seed)"
        if let file = files[key] { return file }
        if files.isEmpty {
            // In memory: removed when the process ends, whatever the runs did.
            atexit { try? FileManager.default.removeItem(at: preparedRoot) }
        }
        let directory = preparedRoot.appendingPathComponent(UUID().uuidString)
        let path = directory.appendingPathComponent("todo.db").path
        var generator = SeededGenerator(seed: seed)
        try TodoProcess.prepare(binary, store: ["--file", path], in: directory, items: n, steps: 0, using: &generator, scenario: scenario)
        let script = directory.appendingPathComponent("edits.txt")
        let lines = (0..<k).map { _ in "edit \(Int(generator.next(upperBound: UInt64(n))) + 1) \(TodoFixture.text(length: 30, using: &generator))\n" }
        do {
            try Data(lines.joined().utf8).write(to: script)
        } catch {
            throw BenchmarkFailure("\(scenario): could not write the script: \(error)")
        }
        var stopwatch = Stopwatch()
        let (status, _) = try stopwatch.measure { () throws(BenchmarkFailure) in
            try TodoProcess.run(binary, ["--file", path, "--history-limit", TodoLongHistory.limit], input: script, scenario: scenario)
        }
        guard status == 0 else { throw BenchmarkFailure("\(scenario): the \(k)-line edit script exited \(status)") }
        let file = (path, stopwatch.nanoseconds(per: 1) / 1e9)
        files[key] = file
        return file
    }
}

/// Where ``PreparedFiles`` keeps its files for the life of the process.
private let preparedRoot = TodoLongHistory.directory("todo-long-history-prepared")
