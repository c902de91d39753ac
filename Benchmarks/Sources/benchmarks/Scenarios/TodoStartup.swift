import Foundation

/// `todo-startup`: how long the `todo` binary takes, as a whole process (start, read, work,
/// write, exit), on a data file of N items with a full history of 100 steps (the default
/// limit). Implementations: `todo-list` (`todo list`, the read path) and `todo-add` (`todo add`,
/// a change written back). Figure: `ms`, the median of several runs.
///
/// The file is written here in the CLI's documented file format (see `TodoDataFileWriter`),
/// as the CLI would leave it after N - 100 adds folded into the base and 100 single adds:
/// driving the binary to add N items one command at a time rewrites the file per command,
/// O(N²) in all. The binary is `TODO_BINARY`, or one beside this executable (build it with
/// `swift build -c release --package-path Benchmarks --product todo`), or the root package's
/// own build (release, else debug).
struct TodoStartup: Scenario {

    static let milliseconds = FigureColumn(key: "ms", header: "ms (median)")
    static let historySteps = 100
    static let runs = 9

    let name = "todo-startup"
    let impls = ["todo-list", "todo-add"]
    let figures = [milliseconds]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [Self.historySteps]) : ([1_000, 10_000, 100_000], [Self.historySteps])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = Self.binary() else {
            return .skipped(reason: "no todo binary: run `swift build -c release --package-path Benchmarks --product todo`, or set TODO_BINARY")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.json").path
        var generator = SeededGenerator(seed: seed)
        try TodoDataFileWriter.write(at: path, items: n, steps: min(k, n), using: &generator)

        var times: [Double] = []
        for run in 0..<Self.runs {
            let arguments = impl == "todo-add" ? ["add", "Benchmark item \(run)"] : ["list"]
            var stopwatch = Stopwatch()
            let (status, output) = try stopwatch.measure { () throws(BenchmarkFailure) in
                try Self.run(binary, arguments + ["--file", path])
            }
            let lines = output.split(separator: "\n").count
            guard status == 0, impl == "todo-add" || lines == n else {
                throw BenchmarkFailure("todo-startup: `todo \(arguments[0])` exited \(status) with \(lines) lines for \(n) items")
            }
            times.append(stopwatch.nanoseconds(per: 1) / 1e6)
        }
        if impl == "todo-add" {
            let (status, output) = try Self.run(binary, ["list", "--file", path])
            let lines = output.split(separator: "\n").count
            guard status == 0, lines == n + Self.runs else {
                throw BenchmarkFailure("todo-startup: after \(Self.runs) adds, `todo list` shows \(lines) lines, not \(n + Self.runs)")
            }
        }
        times.sort()
        return .measured([Self.milliseconds.key: times[times.count / 2]])
    }

    /// Target 7: `todo list` at N = 10,000 under 200 ms; at N = 100,000, `todo list` and
    /// `todo add` each under 300 ms (with 100 history steps).
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        results.compactMap { result in
            guard let value = result.figures[Self.milliseconds.key] else { return nil }
            let command = result.impl == "todo-add" ? "todo add" : "todo list"
            switch (result.n, result.impl) {
            case (10_000, "todo-list"):
                return RatioCheck(target: "7", description: "todo list ms, N=10,000, \(Self.historySteps) history steps", value: value, limit: 200)
            case (100_000, _):
                return RatioCheck(target: "7", description: "\(command) ms, N=100,000, \(Self.historySteps) history steps", value: value, limit: 300)
            default:
                return nil
            }
        }
    }

    private static func binary() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["TODO_BINARY"] { return explicit }
        // This file is Benchmarks/Sources/benchmarks/Scenarios/TodoStartup.swift in the repository.
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("todo").path,
            root.appendingPathComponent(".build/release/todo").path,
            root.appendingPathComponent(".build/debug/todo").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func run(_ binary: String, _ arguments: [String]) throws(BenchmarkFailure) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw BenchmarkFailure("todo-startup: could not run \(binary): \(error)")
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
