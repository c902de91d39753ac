import Foundation

/// Data files for `todo-long-history`, prepared once per size and copied for each run: a
/// 100,000-line script is too long to repeat for every implementation.
final class PreparedFiles: @unchecked Sendable {
    // Sound to share: `files` is only touched under `lock`.
    static let shared = PreparedFiles()
    private let lock = NSLock()
    private var files: [String: (path: String, scriptSeconds: Double)] = [:]

    /// The file of `n` items and `k` edit steps for `seed`, made on first use, and how many
    /// seconds its script took.
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
        let seconds = try Self.fill(binary, store: ["--file", path], in: directory, n: n, k: k, seed: seed, scenario: scenario)
        let file = (path, seconds)
        files[key] = file
        return file
    }

    /// Fills the list the options `store` name (a file, or a person's list on a server) with
    /// `n` items imported without history, then runs a script of `k` one-title `edit` lines
    /// on it in one process, under a limit that keeps every step; returns the script's
    /// seconds. The same seed gives the same items and the same script wherever the list is,
    /// so a file and a server hold the same history. `environment` is added to each
    /// process's; the input files are written into `directory`.
    static func fill(
        _ binary: String,
        store: [String],
        in directory: URL,
        n: Int,
        k: Int,
        seed: UInt64,
        environment: [String: String] = [:],
        scenario: String
    ) throws(BenchmarkFailure) -> Double {
        var generator = SeededGenerator(seed: seed)
        try TodoProcess.prepare(binary, store: store, in: directory, items: n, steps: 0, environment: environment, using: &generator, scenario: scenario)
        let script = directory.appendingPathComponent("edits.txt")
        let lines = (0..<k).map { _ in "edit \(Int(generator.next(upperBound: UInt64(n))) + 1) \(TodoFixture.text(length: 30, using: &generator))\n" }
        do {
            try Data(lines.joined().utf8).write(to: script)
        } catch {
            throw BenchmarkFailure("\(scenario): could not write the script: \(error)")
        }
        var stopwatch = Stopwatch()
        let (status, _) = try stopwatch.measure { () throws(BenchmarkFailure) in
            try TodoProcess.run(binary, store + ["--history-limit", TodoLongHistory.limit], input: script, environment: environment, scenario: scenario)
        }
        guard status == 0 else { throw BenchmarkFailure("\(scenario): the \(k)-line edit script exited \(status)") }
        return stopwatch.nanoseconds(per: 1) / 1e9
    }
}

/// Where ``PreparedFiles`` keeps its files for the life of the process.
private let preparedRoot = TodoLongHistory.directory("todo-long-history-prepared")
