/// Runs one scenario over the sizes and implementations the options select.
///
/// Repetitions are interleaved (at one size, every step count and implementation once, then
/// again), so a slow spell on the machine hits all of them alike instead of one of them: the
/// ratios compare implementations, and step counts, measured side by side.
struct BenchmarkRunner {
    let scenario: any Scenario
    let options: Options

    /// One implementation at one step count, at the size being run.
    private struct Configuration: Hashable {
        let impl: String
        let k: Int
    }

    func run(into report: inout Report) throws(BenchmarkFailure) {
        let defaults = scenario.defaultSizes(quick: options.quick)
        let sizes = options.sizes ?? defaults.sizes
        let steps = options.steps ?? defaults.steps
        let impls = scenario.impls.filter { options.impls?.contains($0) ?? true }
        guard !impls.isEmpty else { return }
        let repetitions = options.effectiveRepetitions

        for impl in impls {
            Console.error("\(scenario.name): warming up \(impl)")
            try scenario.warmUp(impl: impl, seed: options.seed)
        }
        var results: [BenchmarkResult] = []
        var skipped: [SkippedRun] = []
        for n in sizes {
            var runs: [Configuration: [[String: Double]]] = [:]
            var skipReasons: [Configuration: String] = [:]
            for repetition in 1...repetitions {
                for k in steps {
                    for impl in impls {
                        let configuration = Configuration(impl: impl, k: k)
                        guard skipReasons[configuration] == nil else { continue }
                        Console.error("\(scenario.name): \(impl) n=\(n) k=\(k) run \(repetition)/\(repetitions)")
                        switch try scenario.run(impl: impl, n: n, k: k, seed: options.seed) {
                        case let .measured(figures): runs[configuration, default: []].append(figures)
                        case let .skipped(reason): skipReasons[configuration] = reason
                        }
                    }
                }
            }
            for k in steps {
                for impl in impls {
                    let configuration = Configuration(impl: impl, k: k)
                    if let reason = skipReasons[configuration] {
                        skipped.append(SkippedRun(scenario: scenario.name, impl: impl, n: n, k: k, reason: reason))
                    } else if let configurationRuns = runs[configuration] {
                        results.append(BenchmarkResult(scenario: scenario.name, impl: impl, n: n, k: k, figures: BenchmarkResult.best(of: configurationRuns)))
                    }
                }
            }
        }
        report.sections.append(Report.Section(
            scenario: scenario.name,
            columns: scenario.figures,
            results: results,
            skipped: skipped,
            ratios: scenario.ratios(of: results)
        ))
    }
}
