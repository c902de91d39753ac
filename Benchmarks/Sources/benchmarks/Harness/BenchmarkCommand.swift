import Foundation

/// The `benchmarks` command: runs the selected scenarios and writes the report.
///
/// In `--json` mode standard output carries exactly one JSON object and every human-readable
/// line (progress, the table) goes to standard error, so a script can parse stdout whole.
enum BenchmarkCommand {

    /// Runs the command and returns its exit status.
    static func run(arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Console.error("benchmarks: \(error.message)\n\n\(Options.usage)")
            return 2
        }
        if options.showHelp {
            print(Options.usage)
            return 0
        }
        let scenarios = ScenarioRegistry.all
            .filter { options.scenarios?.contains($0.name) ?? true }
            .map { $0.configured(by: options) }

        var report = Report()
        do {
            for scenario in scenarios {
                try BenchmarkRunner(scenario: scenario, options: options).run(into: &report)
            }
        } catch {
            Console.error("benchmarks: FAILED: \(error.message)")
            return 1
        }

        let table = report.table()
        if options.json {
            Console.error(table)
            print(report.json())
        } else {
            print(table)
        }
        return 0
    }
}
