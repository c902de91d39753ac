import Foundation
import Testing

/// The tests' one way to wait for a child (`Process.runAndWaitForExit()`) reports what
/// `terminationStatus` would.
@Suite("Waiting for a child process")
struct ProcessExitTests {

    @Test("An exit code comes back as the status", arguments: [0, 1, 3, 255] as [Int32])
    func exitCode(code: Int32) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit \(code)"]
        #expect(try process.runAndWaitForExit() == code)
        #expect(!process.isRunning)
    }

    @Test("A child killed by a signal reports the signal")
    func killedBySignal() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "kill -9 $$"]
        #expect(try process.runAndWaitForExit() == SIGKILL)
    }
}
