import Foundation

/// The size of the randomized runs and how to replay one.
///
/// CI runs a fixed set of seeds, so a red run is red again on any machine. Locally:
///
/// ```sh
/// # Many more sequences (per tracking mode), and longer ones:
/// RANDOMIZED_ITERATIONS=5000 RANDOMIZED_OPERATIONS=400 swift test --filter ControllerModelReliabilityTests
/// # Seeds from elsewhere in the space:
/// RANDOMIZED_FIRST_SEED=1000000 RANDOMIZED_ITERATIONS=5000 swift test --filter ControllerModelReliabilityTests
/// # Replay the seed a failure printed (with the same RANDOMIZED_OPERATIONS, if it was set):
/// RANDOMIZED_SEED=123 swift test --filter ControllerModelReliabilityTests
/// ```
///
/// A failure prints its seed and the shortest failing sequence the shrinker found. If the
/// process crashes instead, `RANDOMIZED_VERBOSE=1` prints each seed before it runs.
enum RandomizedTesting {

    /// Sequences per tracking mode in CI.
    static let defaultIterations = 75
    /// Operations per sequence in CI.
    static let defaultOperations = 200

    static var seeds: [UInt64] {
        if let seed = integer("RANDOMIZED_SEED") { return [UInt64(seed)] }
        let first = UInt64(integer("RANDOMIZED_FIRST_SEED") ?? 1)
        let count = UInt64(max(integer("RANDOMIZED_ITERATIONS") ?? defaultIterations, 0))
        return Array(first..<first + count)
    }

    static var operationsPerSequence: Int {
        integer("RANDOMIZED_OPERATIONS") ?? defaultOperations
    }

    /// The command that runs `seed` again, with this run's sequence length.
    static func replayCommand(seed: UInt64, filter: String) -> String {
        let length = operationsPerSequence == defaultOperations ? "" : " RANDOMIZED_OPERATIONS=\(operationsPerSequence)"
        return "RANDOMIZED_SEED=\(seed)\(length) swift test --filter \(filter)"
    }

    static var isVerbose: Bool {
        ProcessInfo.processInfo.environment["RANDOMIZED_VERBOSE"] != nil
    }

    private static func integer(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }
}
