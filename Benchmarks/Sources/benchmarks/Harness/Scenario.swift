/// One benchmark scenario: a workload run by several implementations at several sizes.
///
/// The harness (``BenchmarkRunner``) chooses the sizes, repeats each run, keeps the best
/// figures and prints them; a scenario only measures one implementation at one size per call
/// and says which ratios between its results matter. To add a scenario, write a type in its
/// own file under `Scenarios/` and list it in ``ScenarioRegistry``.
protocol Scenario: Sendable {

    /// The name used by `--scenario` and in the results.
    var name: String { get }

    /// The implementations compared, in table order.
    var impls: [String] { get }

    /// The figures each run reports, in table order.
    var figures: [FigureColumn] { get }

    /// The sizes (`n`) and step counts (`k`) to run when the command line gives none.
    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int])

    /// Runs `impl` once at size `n` with `k` steps and returns its figures, keyed by
    /// ``FigureColumn/key``.
    ///
    /// - Throws: ``BenchmarkFailure`` when the implementation computed a wrong state: a
    ///   benchmark of wrong answers is worthless, so the whole command fails.
    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome

    /// Runs `impl` once on a small size, unmeasured, so that one-time costs (lazily created
    /// runtime metadata, first-touch page faults) do not land in the first measured run.
    func warmUp(impl: String, seed: UInt64) throws(BenchmarkFailure)

    /// The ratios between `results` (this scenario's, from one invocation) worth reporting,
    /// each with its target when there is one.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck]

    /// This scenario with what it reads from the command line beyond the common flags
    /// (`text-editing`'s `--trace`); itself by default.
    func configured(by options: Options) -> any Scenario
}

extension Scenario {

    func warmUp(impl: String, seed: UInt64) throws(BenchmarkFailure) {}

    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] { [] }

    func configured(by options: Options) -> any Scenario { self }
}

/// What one run produced.
enum RunOutcome {
    /// The figures, keyed by ``FigureColumn/key``. A figure missing here (memory on a platform
    /// without `mallinfo2`) is reported as unavailable.
    case measured([String: Double])
    /// The run was not attempted, for the reason given (it would not fit in memory, say).
    case skipped(reason: String)
}

/// One figure a scenario reports.
struct FigureColumn: Sendable {
    /// The JSON key, e.g. `append_ns_per_step`.
    let key: String
    /// The table header, e.g. `append ns/step`.
    let header: String
}
