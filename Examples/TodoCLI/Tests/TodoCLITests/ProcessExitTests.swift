import Foundation
import Testing

/// The tests' one way to wait for a child (`Process.waitForExit()`, and
/// `runAndWaitForExit()` on it) reports what `terminationReason` and `terminationStatus`
/// would.
@Suite("Waiting for a child process")
struct ProcessExitTests {

    @Test("An exit code comes back as the status", arguments: [0, 1, 3, 255] as [Int32])
    func exitCode(code: Int32) throws {
        let process = shell("exit \(code)")
        #expect(try process.runAndWaitForExit() == code)
        #expect(!process.isRunning && process.hasEnded)
    }

    @Test("A child killed by a signal reports the signal")
    func killedBySignal() throws {
        #expect(try shell("kill -9 $$").runAndWaitForExit() == SIGKILL)
    }

    /// Foundation misses the killed child's exit in about half the runs on Linux, so this
    /// test goes through the wait's own reaping about as often as through Foundation's.
    @Test("A started child's end is told apart: an exit code or a signal")
    func exitOrSignal() throws {
        let exiting = shell("exit 9")
        try exiting.run()
        #expect(exiting.waitForExit() == .exited(9))
        let killed = shell("sleep 30")
        try killed.run()
        #expect(!killed.hasEnded)
        kill(killed.processIdentifier, SIGKILL)
        #expect(killed.waitForExit() == .killed(signal: SIGKILL))
        #expect(killed.hasEnded)
    }

    private func shell(_ script: String) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        return process
    }
}
