import Foundation
import TodoKit
import UndoableReducer

/// `todo-startup`: how long the `todo` binary takes to `list` a data file of N items with a
/// full history of 100 steps (the default limit). Figure: `ms`, the median of several runs,
/// each a whole process: start, read, print, exit.
///
/// The file is written with the CLI's own persistence (TodoKit), as the CLI would after N - 100
/// adds in one transaction and 100 single adds. The `todo` binary must sit next to this
/// executable (the package builds it with the benchmarks), or be named by `TODO_BINARY`.
struct TodoStartup: Scenario {

    static let milliseconds = FigureColumn(key: "ms", header: "ms (median)")
    static let historySteps = 100
    static let runs = 9

    let name = "todo-startup"
    let impls = ["todo-list"]
    let figures = [milliseconds]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [Self.historySteps]) : ([1_000, 10_000], [Self.historySteps])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard let binary = Self.binary() else {
            return .skipped(reason: "no todo binary next to benchmarks (swift build -c release --product todo) or in TODO_BINARY")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("todo.json").path
        var generator = SeededGenerator(seed: seed)
        try Self.writeFile(at: path, items: n, steps: min(k, n), using: &generator)

        var times: [Double] = []
        for _ in 0..<Self.runs {
            var stopwatch = Stopwatch()
            let (status, output) = try stopwatch.measure { () throws(BenchmarkFailure) in try Self.list(binary, file: path) }
            guard status == 0, output.split(separator: "\n").count == n else {
                throw BenchmarkFailure("todo-startup: `todo list` exited \(status) with \(output.split(separator: "\n").count) lines for \(n) items")
            }
            times.append(stopwatch.nanoseconds(per: 1) / 1e6)
        }
        times.sort()
        return .measured([Self.milliseconds.key: times[times.count / 2]])
    }

    /// Target 7: `todo list` at N = 10,000 with 100 history steps in under 200 ms.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        results.filter { $0.n == 10_000 }.compactMap { result in
            result.figures[Self.milliseconds.key].map {
                RatioCheck(target: "7", description: "todo list ms, N=10,000, \(Self.historySteps) history steps", value: $0, limit: 200)
            }
        }
    }

    private static func binary() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["TODO_BINARY"] { return explicit }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("todo").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
    }

    private static func writeFile(at path: String, items: Int, steps: Int, using generator: inout SeededGenerator) throws(BenchmarkFailure) {
        let adds = (0..<items).map { _ in
            TodoAction.add(id: TodoFixture.uuid(using: &generator), title: TodoFixture.text(length: 30, using: &generator))
        }
        let file = TodoDataFile(path: path, historyLimit: historySteps)
        do {
            try file.modify { store in
                store.send(.transaction(Array(adds.dropLast(steps))))
                store.send(.removeAllVersions)
                for add in adds.suffix(steps) { store.send(.action(add)) }
            }
        } catch {
            throw BenchmarkFailure("todo-startup: could not write the data file: \(error.message)")
        }
    }

    private static func list(_ binary: String, file: String) throws(BenchmarkFailure) -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["list", "--file", file]
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
