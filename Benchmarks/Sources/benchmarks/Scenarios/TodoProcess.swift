import Foundation

/// Runs the `todo` binary for the `todo-*` scenarios, and prepares its data files through its
/// documented interchange format (`todo import --json`), never through its internals.
///
/// The binary is `TODO_BINARY`, or one beside this executable (build it with
/// `swift build -c release --package-path Benchmarks --scratch-path .build-release --product todo`),
/// or the root package's own build (release, else debug).
enum TodoProcess {

    /// The binary, if one is found.
    static func binary() -> String? {
        if let explicit = ProcessInfo.processInfo.environment["TODO_BINARY"] { return explicit }
        // This file is Benchmarks/Sources/benchmarks/Scenarios/TodoProcess.swift in the repository.
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

    /// Why a scenario is skipped when there is no binary.
    static let missing = "no todo binary: run `swift build -c release --package-path Benchmarks --scratch-path .build-release --product todo`, or set TODO_BINARY"

    /// A fresh directory for one run's data file; the caller removes it.
    static func temporaryDirectory(_ scenario: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(scenario)-\(UUID().uuidString)")
    }

    /// Runs `binary arguments`, with `input` as standard input (none when `nil`) and
    /// `environment` added to this process's, and returns the exit status and standard output.
    static func run(
        _ binary: String, _ arguments: [String], input: URL? = nil, environment: [String: String] = [:], scenario: String
    ) throws(BenchmarkFailure) -> (Int32, String) {
        let outcome = try runMeasured(binary, arguments, input: input, environment: environment, scenario: scenario)
        return (outcome.status, String(decoding: outcome.output, as: UTF8.self))
    }

    /// The same, with the child's processor time and peak memory.
    static func runMeasured(
        _ binary: String, _ arguments: [String], input: URL? = nil, environment added: [String: String] = [:], scenario: String
    ) throws(BenchmarkFailure) -> ChildProcess.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TODO_FILE"] = nil
        environment["TODO_HISTORY_LIMIT"] = nil
        environment.merge(added) { _, new in new }
        do {
            let outcome = try ChildProcess.run(
                binary,
                arguments: arguments,
                environment: environment.map { "\($0.key)=\($0.value)" },
                inputPath: input?.path ?? "/dev/null"
            )
            return outcome
        } catch {
            throw BenchmarkFailure("\(scenario): could not run \(binary): \(error)")
        }
    }

    /// A data file at `path` holding `items` items of ~30-character titles, and then
    /// `steps` history steps, each one `add` (the last `steps` items): the list imported
    /// with no history kept, then a script of adds.
    static func prepare(
        _ binary: String,
        at path: String,
        items: Int,
        steps: Int,
        using generator: inout SeededGenerator,
        scenario: String
    ) throws(BenchmarkFailure) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try prepare(binary, store: ["--file", path], in: directory, items: items, steps: steps, using: &generator, scenario: scenario)
    }

    /// The same for the list the options `store` name (`--file PATH`, or `--database URL
    /// --as NAME`), with the input files written into `directory` and `environment` added to
    /// each process's.
    static func prepare(
        _ binary: String,
        store: [String],
        in directory: URL,
        items: Int,
        steps: Int,
        environment: [String: String] = [:],
        using generator: inout SeededGenerator,
        scenario: String
    ) throws(BenchmarkFailure) {
        struct Item: Encodable {
            let id: String
            let title: String
            let done: Bool
        }
        struct Document: Encodable {
            let format = "todo-export"
            let version = 1
            let items: [Item]
        }
        let all = (0..<items).map { _ in
            Item(id: TodoFixture.uuid(using: &generator).uuidString, title: TodoFixture.text(length: 30, using: &generator), done: false)
        }
        let export = directory.appendingPathComponent("import.json")
        let script = directory.appendingPathComponent("adds.txt")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(Document(items: Array(all.dropLast(steps)))).write(to: export)
            try Data(all.suffix(steps).map { "add \($0.title)\n" }.joined().utf8).write(to: script)
        } catch {
            throw BenchmarkFailure("\(scenario): could not write the input files: \(error)")
        }
        let (imported, _) = try run(binary, store + ["--history-limit", "0", "import", "--json", export.path], environment: environment, scenario: scenario)
        let (added, _) = try run(binary, store, input: script, environment: environment, scenario: scenario)
        guard imported == 0, added == 0 else {
            throw BenchmarkFailure("\(scenario): preparing \(items) items exited \(imported) (import), \(added) (adds)")
        }
    }

    /// How many items `todo list` shows for the data file at `path`.
    static func count(_ binary: String, path: String, scenario: String) throws(BenchmarkFailure) -> Int {
        try count(binary, store: ["--file", path], scenario: scenario)
    }

    /// How many items `todo list` shows for the list the options `store` name, with
    /// `environment` added to the process's.
    static func count(_ binary: String, store: [String], environment: [String: String] = [:], scenario: String) throws(BenchmarkFailure) -> Int {
        let (status, output) = try run(binary, store + ["list"], environment: environment, scenario: scenario)
        guard status == 0 else { throw BenchmarkFailure("\(scenario): `todo list` exited \(status)") }
        return output.hasPrefix("No items.") ? 0 : output.split(separator: "\n").count
    }

    /// The median milliseconds of `runs` whole `todo` processes running `command` (`add`,
    /// `undo` or `list`) on the list the options `store` name, which holds `items` items and
    /// `steps` history steps; each run and the list after them checked (`impl` names the run
    /// in failures).
    static func medianMilliseconds(
        of command: String,
        _ binary: String,
        store: [String],
        items: Int,
        steps: Int,
        runs: Int,
        impl: String,
        scenario: String
    ) throws(BenchmarkFailure) -> Double {
        var times: [Double] = []
        for run in 0..<runs {
            let arguments = switch command {
            case "add": ["add", "Benchmark item \(run)"]
            case "undo": ["undo"]
            default: ["list"]
            }
            var stopwatch = Stopwatch()
            let (status, output) = try stopwatch.measure { () throws(BenchmarkFailure) in
                try TodoProcess.run(binary, store + arguments, scenario: scenario)
            }
            let lines = output.split(separator: "\n").count
            guard status == 0, command != "list" || lines == items else {
                throw BenchmarkFailure("\(scenario): `todo \(arguments[0])` (\(impl)) exited \(status) with \(lines) lines for \(items) items")
            }
            times.append(milliseconds(stopwatch))
        }
        let expected = switch command {
        case "add": items + runs
        case "undo": items - min(runs, steps)
        default: items
        }
        let shown = try count(binary, store: store, scenario: scenario)
        guard shown == expected else {
            throw BenchmarkFailure("\(scenario): after \(runs) runs of \(impl), `todo list` shows \(shown) items, not \(expected)")
        }
        times.sort()
        return times[times.count / 2]
    }

    /// Milliseconds in `stopwatch`, per `count`.
    static func milliseconds(_ stopwatch: Stopwatch, per count: Int = 1) -> Double {
        stopwatch.nanoseconds(per: count) / 1e6
    }
}
