/// A benchmark computed a wrong answer (or could not run at all): the command must fail.
struct BenchmarkFailure: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// Fails with `message` unless `condition` holds: the checks that make a benchmark trustworthy.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(BenchmarkFailure) {
    guard condition else { throw BenchmarkFailure(message()) }
}
