/// Runs one scenario over the sizes and implementations the options select.
///
/// Repetitions are interleaved (every implementation once, then again), so a slow spell on
/// the machine hits all implementations alike instead of one of them.
struct BenchmarkRunner {
    let scenario: any Scenario
    let options: Options

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
            for k in steps {
                var runs: [String: [[String: Double]]] = [:]
                var skipReasons: [String: String] = [:]
                for repetition in 1...repetitions {
                    for impl in impls where skipReasons[impl] == nil {
                        Console.error("\(scenario.name): \(impl) n=\(n) k=\(k) run \(repetition)/\(repetitions)")
                        switch try scenario.run(impl: impl, n: n, k: k, seed: options.seed) {
                        case let .measured(figures): runs[impl, default: []].append(figures)
                        case let .skipped(reason): skipReasons[impl] = reason
                        }
                    }
                }
                for impl in impls {
                    if let reason = skipReasons[impl] {
                        skipped.append(SkippedRun(scenario: scenario.name, impl: impl, n: n, k: k, reason: reason))
                    } else if let implRuns = runs[impl] {
                        results.append(BenchmarkResult(scenario: scenario.name, impl: impl, n: n, k: k, figures: BenchmarkResult.best(of: implRuns)))
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
