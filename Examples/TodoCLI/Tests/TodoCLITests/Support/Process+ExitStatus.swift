import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {

    /// Runs the process and waits for it to exit; returns its exit code, or the signal that
    /// ended it (as `terminationStatus` does).
    ///
    /// `waitUntilExit()` alone once hung a whole `swift test` run: the child had exited (a
    /// zombie, never reaped) but Foundation never heard of it, while Swift Testing's exit-test
    /// monitor was waiting on the process's children too. So the wait has a fallback: when the
    /// exit has gone unnoticed for a few seconds, the child is reaped here.
    func runAndWaitForExit() throws -> Int32 {
        let exited = DispatchSemaphore(value: 0)
        terminationHandler = { _ in exited.signal() }
        try run()
        let pid = processIdentifier
        var unnoticedSince: ContinuousClock.Instant?
        while exited.wait(timeout: .now() + .seconds(1)) == .timedOut {
            guard Self.hasExited(pid) else { continue }
            let now = ContinuousClock.now
            guard let since = unnoticedSince, now - since > .seconds(5) else {
                unnoticedSince = unnoticedSince ?? now
                continue
            }
            var status: Int32 = 0
            guard waitpid(pid, &status, 0) == pid else { continue }
            // Exited: the code in bits 8 to 15; killed: the signal in the low 7 bits.
            return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
        }
        return terminationStatus
    }

    /// Whether the child `pid` has exited, without reaping it.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._kill.si_pid == pid
    }
}
