/// Adds up the time spent in the measured parts of a run, so that checks made between them
/// (spot checks of intermediate states) are not counted.
struct Stopwatch {
    private let clock = ContinuousClock()
    private(set) var elapsed: Duration = .zero

    /// Runs `body` and adds its duration to ``elapsed``.
    @inline(__always)
    mutating func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let start = clock.now
        defer { elapsed += clock.now - start }
        return try body()
    }

    /// The elapsed time divided by `count`, in nanoseconds.
    func nanoseconds(per count: Int) -> Double {
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return nanoseconds / Double(count)
    }
}
