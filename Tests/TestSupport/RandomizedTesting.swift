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
public enum RandomizedTesting {

    /// Operations per sequence in CI.
    public static let defaultOperations = 200

    /// The seeds to run: `RANDOMIZED_SEED` alone, or `RANDOMIZED_ITERATIONS` (default
    /// `defaultIterations`, the suite's CI size) from `RANDOMIZED_FIRST_SEED`.
    ///
    /// With `RANDOMIZED_TALLY` set to a file, appends a line `<caller> <count>` to it, so a
    /// soak run (`scripts/soak`) can say how many sequences it tried.
    public static func seeds(defaultIterations: Int, caller: String = #fileID) -> [UInt64] {
        let seeds: [UInt64]
        if let seed = integer("RANDOMIZED_SEED") {
            seeds = [UInt64(seed)]
        } else {
            let first = UInt64(integer("RANDOMIZED_FIRST_SEED") ?? 1)
            let count = UInt64(max(integer("RANDOMIZED_ITERATIONS") ?? defaultIterations, 0))
            seeds = Array(first..<first + count)
        }
        if let tally = ProcessInfo.processInfo.environment["RANDOMIZED_TALLY"] {
            record("\(caller) \(seeds.count)\n", in: tally)
        }
        return seeds
    }

    /// Appends `line` to the file at `path` in one write (`O_APPEND`), so suites running in
    /// parallel do not interleave their lines.
    private static func record(_ line: String, in path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var bytes = Array(line.utf8)
        _ = write(descriptor, &bytes, bytes.count)
    }

    public static var operationsPerSequence: Int {
        integer("RANDOMIZED_OPERATIONS") ?? defaultOperations
    }

    /// The command that runs `seed` again, with this run's sequence length.
    public static func replayCommand(seed: UInt64, filter: String) -> String {
        let length = operationsPerSequence == defaultOperations ? "" : " RANDOMIZED_OPERATIONS=\(operationsPerSequence)"
        return "RANDOMIZED_SEED=\(seed)\(length) swift test --filter \(filter)"
    }

    public static var isVerbose: Bool {
        ProcessInfo.processInfo.environment["RANDOMIZED_VERBOSE"] != nil
    }

    private static func integer(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }
}

/// Where a randomized sequence first disagreed with its reference model.
public struct ModelFailure: Sendable {
    /// The operation after which the system and the model first disagreed.
    public let index: Int
    public let message: String
    /// What disagreed first, so shrinking keeps hunting the same bug.
    public let kind: String

    public init(index: Int, message: String, kind: String) {
        self.index = index
        self.message = message
        self.kind = kind
    }
}

extension ModelFailure {

    /// The first failure of `run` with writes journaled (issue 39), or else with every step
    /// found by comparing versions, the mode named in its message: `run` is given whether the
    /// history records writes as they are made.
    public static func firstInEitherRecordingMode(_ run: (_ recordsWrites: Bool) -> ModelFailure?) -> ModelFailure? {
        for recordsWrites in [true, false] {
            if let failure = run(recordsWrites) {
                let mode = recordsWrites ? "journaled" : "compared"
                return ModelFailure(index: failure.index, message: "\(mode): \(failure.message)", kind: failure.kind)
            }
        }
        return nil
    }

    /// Where one run, made with writes journaled and again with every step found by comparing
    /// versions (issue 39), first saw different things in the two modes, or `nil`: `run` is
    /// given whether the history records writes and returns what it saw after each of its
    /// operations (the present, what undo and redo did, a saved archive's bytes), which must
    /// not depend on the mode. A run that also checks a model reports that itself, per mode.
    /// The failure's kind is what `kind` makes of the first two observations that differ.
    public static func firstDifferenceBetweenRecordingModes<Observation: Equatable>(
        kind: (_ journaled: Observation, _ compared: Observation) -> String = { _, _ in "recording modes differ" },
        _ run: (_ recordsWrites: Bool) throws -> [Observation]
    ) rethrows -> ModelFailure? {
        let (journaled, compared) = (try run(true), try run(false))
        if let index = zip(journaled, compared).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return ModelFailure(
                index: index, message: "journaled and compared differ: \(journaled[index]) and \(compared[index])",
                kind: kind(journaled[index], compared[index])
            )
        }
        guard journaled.count == compared.count else {
            return ModelFailure(
                index: min(journaled.count, compared.count),
                message: "journaled saw \(journaled.count) operations, compared \(compared.count)", kind: "recording modes differ"
            )
        }
        return nil
    }
}

/// Shortens a failing sequence: cuts after the failing operation, then drops runs of
/// operations (halving the run length down to one) while a failure of the same kind remains.
public func shrink<Operation>(
    _ operations: [Operation],
    failure: ModelFailure,
    maxRuns: Int = 3_000,
    firstFailure: ([Operation]) -> ModelFailure?
) -> ([Operation], ModelFailure) {
    var operations = Array(operations[...failure.index])
    var failure = failure
    var runs = 0
    var chunk = max(operations.count / 2, 1)
    while runs < maxRuns {
        var start = 0
        var removedAny = false
        while start < operations.count, runs < maxRuns {
            var candidate = operations
            candidate.removeSubrange(start..<min(start + chunk, operations.count))
            runs += 1
            if let shorter = firstFailure(candidate), shorter.kind == failure.kind {
                operations = Array(candidate[...shorter.index])
                failure = shorter
                removedAny = true
            } else {
                start += chunk
            }
        }
        if !removedAny {
            if chunk == 1 { break }
            chunk /= 2
        }
    }
    return (operations, failure)
}

/// Runs one randomized suite over `RandomizedTesting.seeds(defaultIterations:)`: `run` makes
/// each seed's run (a description such as its history limit, its operations, and how to find
/// their first failure). Returns the report of the first seed that fails, shrunk, with the
/// command that replays it, or `nil` when every seed passes; the caller records it.
public func firstFailingSequence<Operation>(
    suite filter: String,
    defaultIterations: Int,
    caller: String = #fileID,
    run: (UInt64) -> (description: String, operations: [Operation], firstFailure: ([Operation]) -> ModelFailure?)
) -> String? {
    for seed in RandomizedTesting.seeds(defaultIterations: defaultIterations, caller: caller) {
        if RandomizedTesting.isVerbose { print("\(filter): seed \(seed)") }
        let (description, operations, firstFailure) = run(seed)
        guard let failure = firstFailure(operations) else { continue }
        let (shrunk, shrunkFailure) = shrink(operations, failure: failure, firstFailure: firstFailure)
        return """
            Seed \(seed) (\(description)): after operation \
            \(failure.index + 1) of \(operations.count), \(failure.message).
            Shrunk to \(shrunk.count) operations, failing with: \(shrunkFailure.message)
            \(shrunk.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
            Replay: \(RandomizedTesting.replayCommand(seed: seed, filter: filter))
            """
    }
    return nil
}
