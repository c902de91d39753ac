/// The command-line flags.
///
/// Sizes given on the command line apply to every selected scenario; otherwise each scenario
/// uses its own defaults (``Scenario/defaultSizes(quick:)``).
struct Options {
    /// `--n`: the state sizes.
    var sizes: [Int]?
    /// `--k`: the step counts (edits, actions, ...).
    var steps: [Int]?
    /// `--quick`: small sizes and one repetition, for CI smoke runs (debug builds too).
    var quick = false
    /// `--json`: one JSON object on standard output, everything else on standard error.
    var json = false
    /// `--scenario`: the scenarios to run, all when `nil`.
    var scenarios: Set<String>?
    /// `--impl`: the implementations to run, all when `nil`.
    var impls: Set<String>?
    /// `--repeat`: how many times each measurement runs; the best figure is kept.
    var repetitions: Int?
    /// `--seed`: the seed of every random choice, so runs are reproducible.
    var seed: UInt64 = 0x5EED
    /// `--trace`: a recorded editing session for `text-editing`'s `trace` implementation.
    var tracePath: String?
    var showHelp = false

    /// Repetitions when `--repeat` is not given: three, because another process can slow any
    /// single run down on a shared machine, and the fastest of three is rarely disturbed.
    var effectiveRepetitions: Int {
        repetitions ?? (quick ? 1 : 3)
    }

    static let usage = """
        usage: benchmarks [--n LIST] [--k LIST] [--quick] [--json] [--scenario LIST]
                          [--impl LIST] [--repeat R] [--seed S] [--trace PATH]

          --n 1000,10000      state sizes (scenario default: 1000,10000,100000)
          --k 1000,10000      steps per run (scenario default: 1000)
          --quick             small sizes, one repetition: a CI smoke run
          --json              one JSON object on stdout; the table and progress go to stderr
          --scenario NAMES    run only these scenarios (\(ScenarioRegistry.all.map(\.name).joined(separator: ", ")))
          --impl NAMES        run only these implementations (e.g. revertible,snapshot)
          --repeat R          run each measurement R times and keep the best (default 3, --quick 1)
          --seed S            seed of the random positions and contents (default 24301)
          --trace PATH        text-editing's `trace` replays this editing trace (JSON of
                              github.com/josephg/editing-traces, gunzipped), one step a
                              transaction; skipped without it

        Exit status: 0 when every run computed the expected states, 1 when one did not,
        2 on a usage error. Missed performance targets are reported, not failed.
        """

    /// Parses `arguments`, the command line without the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            // Accept both `--n 1000` and `--n=1000`.
            let (flag, inlineValue) = split(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError("\(flag) needs a value") }
                return next
            }
            switch flag {
            case "--n": options.sizes = try positiveIntegers(value(), flag: flag)
            case "--k": options.steps = try positiveIntegers(value(), flag: flag)
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--scenario": options.scenarios = try names(value(), known: ScenarioRegistry.all.map(\.name), flag: flag)
            case "--impl": options.impls = try names(value(), known: ScenarioRegistry.all.flatMap(\.impls), flag: flag)
            case "--repeat": options.repetitions = try positiveIntegers(value(), flag: flag).first
            case "--seed":
                let text = try value()
                guard let seed = UInt64(text) else { throw UsageError("--seed takes an unsigned integer, not '\(text)'") }
                options.seed = seed
            case "--trace": options.tracePath = try value()
            case "--help", "-h": options.showHelp = true
            default: throw UsageError("unknown argument '\(argument)'")
            }
        }
        return options
    }

    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private static func positiveIntegers(_ text: String, flag: String) throws(UsageError) -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var values: [Int] = []
        for part in parts {
            // Allow `100_000` for readability.
            guard let value = Int(part.replacing("_", with: "")), value > 0 else {
                throw UsageError("\(flag) takes positive integers separated by commas, not '\(text)'")
            }
            values.append(value)
        }
        return values
    }

    private static func names(_ text: String, known: [String], flag: String) throws(UsageError) -> Set<String> {
        let names = Set(text.split(separator: ",").map(String.init))
        let unknown = names.subtracting(known)
        guard unknown.isEmpty, !names.isEmpty else {
            throw UsageError("\(flag): unknown name(s) \(unknown.sorted().joined(separator: ", ")); known: \(Set(known).sorted().joined(separator: ", "))")
        }
        return names
    }
}

/// A malformed command line.
struct UsageError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
