/// Everything one invocation measured, by scenario, ready to print as a table or as JSON.
struct Report {

    /// One scenario's results, runs skipped, and ratios.
    struct Section {
        let scenario: String
        let columns: [FigureColumn]
        let results: [BenchmarkResult]
        let skipped: [SkippedRun]
        let ratios: [RatioCheck]
    }

    var sections: [Section] = []
}
