import Foundation

// Entry point: parse the flags, run the chosen scenarios, print the report. A usage error
// exits 2, a benchmark that computed a wrong answer exits 1.
exit(BenchmarkCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
