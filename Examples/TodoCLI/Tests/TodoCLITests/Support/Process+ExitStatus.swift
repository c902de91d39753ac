import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How a child process ended, as the tests' one way of waiting (`Process.waitForExit()`)
/// saw it. The tests read this rather than `terminationReason` and `terminationStatus`: a
/// child that the wait had to reap itself never gets Foundation's.
enum ChildExit: Equatable, CustomStringConvertible {
    /// The child called `exit` with this code.
    case exited(Int32)
    /// A signal ended the child.
    case killed(signal: Int32)

    /// What `terminationStatus` reports: the exit code, or the signal.
    var status: Int32 {
        switch self {
        case let .exited(code): code
        case let .killed(signal): signal
        }
    }

    var description: String {
        switch self {
        case let .exited(code): "exited with \(code)"
        case let .killed(signal): "killed by signal \(signal)"
        }
    }
}

extension Process {

    /// Runs the process and waits for it to exit; returns its exit code, or the signal that
    /// ended it (as `terminationStatus` does).
    func runAndWaitForExit() throws -> Int32 {
        try run()
        return waitForExit().status
    }

    /// Waits for the running process to end, and says how it did.
    ///
    /// `waitUntilExit()` once hung a whole `swift test` run: the child had exited (a zombie,
    /// never reaped) but Foundation never heard of it. It happens here, not rarely: a `sh`
    /// killed by `SIGKILL` went unnoticed in about half the runs of ``ProcessExitTests``. So
    /// this wait has a fallback: when the exit has gone unnoticed for a second, the child is
    /// reaped here.
    func waitForExit() -> ChildExit {
        let pid = processIdentifier
        var unnoticedSince: ContinuousClock.Instant?
        // Most children here end within milliseconds: short naps first, then longer ones.
        var nap: UInt32 = 200
        while isRunning {
            usleep(nap)
            nap = min(nap * 2, 10_000)
            guard Self.hasExited(pid) else { continue }
            let now = ContinuousClock.now
            guard let since = unnoticedSince, now - since > .seconds(1) else {
                unnoticedSince = unnoticedSince ?? now
                continue
            }
            var status: Int32 = 0
            guard waitpid(pid, &status, 0) == pid else { continue }
            // Exited: the code in bits 8 to 15; killed: the signal in the low 7 bits.
            return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: status & 0x7f)
        }
        return terminationReason == .exit ? .exited(terminationStatus) : .killed(signal: terminationStatus)
    }

    /// Whether the process has ended, even where Foundation has not noticed yet (see
    /// ``waitForExit()``): what a loop that polls a running child asks instead of `isRunning`.
    var hasEnded: Bool {
        !isRunning || Self.hasExited(processIdentifier) || Self.isReaped(processIdentifier)
    }

    /// Whether the child `pid` has exited, without reaping it.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._kill.si_pid == pid
    }

    /// Whether `pid` is no longer a child to wait for: reaped, by Foundation or by
    /// ``waitForExit()``'s fallback.
    private static func isReaped(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == -1 && errno == ECHILD
    }
}
