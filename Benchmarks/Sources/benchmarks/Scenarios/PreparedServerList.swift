import Foundation

/// The list on the server for `todo-long-history`'s server implementations: the database
/// `TODO_BENCH_DATABASE` names holds one list, so it holds the size last asked for, prepared
/// again (by ``PreparedFiles/fill(_:store:in:n:k:seed:environment:scenario:)``, the same
/// items and script as the file's) whenever another size is asked for.
///
/// A database cannot be copied through `todo` as a file is, so the implementations at one
/// size run one after another on the same list, each adding its few steps to the K of the
/// script (`server-add` takes its items back with untimed undos, so every implementation
/// finds N items); the harness runs every implementation at one K before the next K, so with
/// `--repeat 1` each K is prepared once (with more repetitions, once per repetition). The
/// log keeps every preparation's versions (see ``environment``): give each run a fresh
/// database, and run the K in increasing order, or a small K is measured over a large log.
final class PreparedServerList: @unchecked Sendable {
    // Sound to share: `prepared` is only touched under `lock`.
    static let shared = PreparedServerList()
    private let lock = NSLock()
    private var prepared: (key: String, scriptSeconds: Double)?

    /// Whose history the runs use: one name, so each preparation's import starts it afresh
    /// (its limit of 0 removes the steps the last size left).
    static let person = "long-history"

    /// Added to every `todo` process on the server: the log keeps every list version the
    /// runs make, so no command trims it and no history is rebased at the horizon (the
    /// default, 10,000 versions, is below the longest script).
    static let environment = ["TODO_LOG_HORIZON": TodoLongHistory.limit]

    /// The options that name the list on `database` as ``person``'s.
    static func store(_ database: String) -> [String] {
        ["--database", database, "--as", person]
    }

    /// Makes the server's list the one of `n` items and `k` edit steps for `seed`, unless
    /// it already is, and returns how many seconds its script took.
    func list(binary: String, database: String, n: Int, k: Int, seed: UInt64, scenario: String) throws(BenchmarkFailure) -> Double {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(database) \(n) \(k) \(seed)"
        if let prepared, prepared.key == key { return prepared.scriptSeconds }
        // Forgotten first: a preparation that fails leaves a list of no known size.
        prepared = nil
        let directory = TodoProcess.temporaryDirectory(scenario)
        defer { try? FileManager.default.removeItem(at: directory) }
        let seconds = try PreparedFiles.fill(
            binary, store: Self.store(database), in: directory, n: n, k: k, seed: seed, environment: Self.environment, scenario: scenario
        )
        prepared = (key, seconds)
        return seconds
    }
}
