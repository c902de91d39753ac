/// The figures of one implementation at one size, the best over the repetitions.
struct BenchmarkResult {
    let scenario: String
    let impl: String
    let n: Int
    let k: Int
    /// Keyed by ``FigureColumn/key``.
    let figures: [String: Double]

    /// Combines the runs of one configuration by keeping each figure's minimum: interference
    /// from other processes only ever adds time, so the minimum is the least disturbed value.
    /// (Heap figures do not vary between runs; the minimum leaves them as they are.)
    static func best(of runs: [[String: Double]]) -> [String: Double] {
        runs.dropFirst().reduce(runs.first ?? [:]) { best, run in
            best.merging(run, uniquingKeysWith: min)
        }
    }
}

/// A configuration that was not run, and why.
struct SkippedRun {
    let scenario: String
    let impl: String
    let n: Int
    let k: Int
    let reason: String
}
