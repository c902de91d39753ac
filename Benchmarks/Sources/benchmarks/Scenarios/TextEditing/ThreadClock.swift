#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Adds up the CPU time this thread spends in the measured parts (user and system), not the
/// wall-clock time: on a machine shared with other busy processes, a loop of microsecond
/// operations is preempted many times, and the wall clock counts the waits too.
struct ThreadClock {
    private(set) var elapsed: Int = 0

    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
    }

    @inline(__always)
    mutating func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let start = Self.now()
        defer { elapsed += Self.now() - start }
        return try body()
    }

    /// The CPU time divided by `count`, in nanoseconds.
    func nanoseconds(per count: Int) -> Double {
        Double(elapsed) / Double(count)
    }
}
