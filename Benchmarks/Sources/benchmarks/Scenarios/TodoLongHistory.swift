import Foundation

/// `todo-long-history` (issue 37): one `todo` command as a whole process on a list of N items
/// whose history keeps K steps, with a limit that keeps them all, on an SQLite file and on a
/// PostgreSQL server.
///
/// The list: N items imported without history, then a script of K one-title `edit` lines
/// (one process, each line its own transaction), so the list stays at N items however long
/// the history. Implementations: `add`, `undo`, `redo` (after an untimed `undo`), `edit` and
/// `done`, each run 9 times on a copy of the file. The files live in memory (`/dev/shm`, where
/// there is one), so that a flush costs nothing and what is measured is the command's own work,
/// not the disk's: the script of 100,000 lines flushes 100,000 times.
///
/// `server-add`, `server-undo`, `server-redo`, `server-edit` and `server-done` run the same
/// commands on the same list and script kept on the server `TODO_BENCH_DATABASE` names, as
/// `todo-server` does (skipped, saying so, when it is unset; the benchmark starts no server),
/// as one person, with the log's horizon above every K (see ``PreparedServerList``, which also
/// says why they share one list at each K).
///
/// Figures: the median wall time and processor time of one command, its largest peak
/// resident memory, and (for `add` and `server-add`, once per size) the seconds the K-line
/// script took. The processor time is the `todo` process's alone: on a server, the work the
/// server does for it is in the wall time only. The peak is `wait4`'s, which for a child of
/// `posix_spawn` is at least this process's own size at the spawn (see
/// ``ChildProcess/forgetPeak()``, called before each measured run): the command's own as long
/// as it grows larger than the harness is then.
struct TodoLongHistory: Scenario {

    static let wall = FigureColumn(key: "ms", header: "ms (median)")
    static let cpu = FigureColumn(key: "cpu_ms", header: "cpu ms (median)")
    static let peak = FigureColumn(key: "peak_kb", header: "peak KB")
    static let script = FigureColumn(key: "script_s", header: "K-line script s")
    static let runs = 9
    /// Above every K run, so no command trims.
    static let limit = "10000000"
    /// The commands measured, each on a file and (prefixed `server-`) on a server.
    static let commands = ["add", "undo", "redo", "edit", "done"]

    let name = "todo-long-history"
    let impls = commands + commands.map { "server-" + $0 }
    let figures = [wall, cpu, peak, script]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [1_000, 5_000]) : ([1_000], [1_000, 20_000, 100_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = TodoProcess.binary() else { return .skipped(reason: TodoProcess.missing) }
        let onServer = impl.hasPrefix("server-")
        let command = onServer ? String(impl.dropFirst("server-".count)) : impl
        let store: [String]
        let environment: [String: String]
        let scriptSeconds: Double
        let before: Int
        let directory = TodoLongHistory.directory(name)
        defer { try? FileManager.default.removeItem(at: directory) }
        if onServer {
            guard let database = TodoServer.database() else { return .skipped(reason: TodoServer.noServer) }
            scriptSeconds = try PreparedServerList.shared.list(binary: binary, database: database, n: n, k: k, seed: seed, scenario: name)
            environment = PreparedServerList.environment
            store = PreparedServerList.store(database) + ["--history-limit", Self.limit]
            // The implementations before this one at this K changed the same list.
            before = try TodoProcess.count(binary, store: store, environment: environment, scenario: name)
        } else {
            let prepared = try PreparedFiles.shared.file(binary: binary, n: n, k: k, seed: seed, scenario: name)
            let path = directory.appendingPathComponent("todo.db").path
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: prepared.path, toPath: path)
            } catch {
                throw BenchmarkFailure("\(name): could not copy the prepared file: \(error)")
            }
            scriptSeconds = prepared.scriptSeconds
            environment = [:]
            store = ["--file", path, "--history-limit", Self.limit]
            before = n
        }
        var walls: [Double] = []
        var cpus: [Double] = []
        var peak = 0
        for run in 0..<Self.runs {
            let arguments: [String] = switch command {
            case "add": ["add", "Benchmark item \(run)"]
            case "undo", "redo": [command]
            case "edit": ["edit", "\(run + 1)", "Edited title \(run)"]
            default: ["done", "\(run + 1)"]
            }
            if command == "redo" { _ = try TodoProcess.run(binary, store + ["undo"], environment: environment, scenario: name) }
            ChildProcess.forgetPeak()
            var stopwatch = Stopwatch()
            let outcome = try stopwatch.measure { () throws(BenchmarkFailure) in
                try TodoProcess.runMeasured(binary, store + arguments, environment: environment, scenario: name)
            }
            guard outcome.status == 0 else {
                throw BenchmarkFailure("\(name): `todo \(arguments.joined(separator: " "))` (\(impl)) exited \(outcome.status) at K=\(k)")
            }
            walls.append(TodoProcess.milliseconds(stopwatch))
            cpus.append(outcome.cpuMilliseconds)
            peak = max(peak, outcome.peakKilobytes)
        }
        let shown = try TodoProcess.count(binary, store: store, environment: environment, scenario: name)
        let expected = command == "add" ? before + Self.runs : before
        try check(shown == expected, "\(name) \(impl): the list has \(shown) items after the runs, not \(expected)")
        if onServer, command == "add" {
            // Taken back, untimed, so the implementations after this one find N items and
            // `undo` takes back edits of the script, as on a copy of the file.
            for _ in 0..<Self.runs {
                let (status, _) = try TodoProcess.run(binary, store + ["undo"], environment: environment, scenario: name)
                try check(status == 0, "\(name) \(impl): an untimed `todo undo` after the runs exited \(status)")
            }
        }
        var figures = [Self.wall.key: median(walls), Self.cpu.key: median(cpus), Self.peak.key: Double(peak)]
        if command == "add" { figures[Self.script.key] = scriptSeconds }
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

    /// Issue 37: each command, on the file and on the server, at every larger K within 1.5× of
    /// the same at the smallest, at most 50 ms of processor time, peak memory within 1.5×; a
    /// 20,000-line script at most 90 s on the file.
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
        // The 90 s target was set for the file; the server's script is reported beside it.
        if let script = results.first(where: { $0.impl == "server-add" && $0.k == 20_000 })?.figures[Self.script.key] {
            checks.append(RatioCheck(target: "37", description: "20,000-line edit script on the server, s", value: script, limit: nil))
        }
        return checks
    }
}
