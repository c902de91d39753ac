#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with `posix_spawn` and `waitpid`, for timing whole processes.
///
/// Not Foundation's `Process`: on Linux it learns of a child's exit through a run-loop source,
/// which added about 40 ms to a child that wrote less than a pipe's buffer and exited at once
/// (`todo list` at 1,000 items: 58 ms through `Process`, 18 ms of process lifetime under
/// `strace`); a child writing more was read until its exit and hid the delay, which is why
/// `todo list` at 10,000 items measured faster than at 1,000.
enum ChildProcess {

    /// What a finished child left.
    struct Outcome {
        /// The exit status, or 128 plus the signal that ended it.
        var status: Int32
        /// Everything it wrote to standard output.
        var output: [UInt8]
    }

    /// Runs `path` with `arguments` and `environment` ("NAME=value" entries), standard input
    /// read from `inputPath`, standard output captured, standard error inherited.
    /// - Throws: The `errno` of the step that failed, as a message.
    static func run(_ path: String, arguments: [String], environment: [String], inputPath: String) throws(ChildProcessError) -> Outcome {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw ChildProcessError(step: "pipe", code: errno) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, nil, argv, envp)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw ChildProcessError(step: "posix_spawn", code: spawned)
        }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)

        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 {
            guard errno == EINTR else { throw ChildProcessError(step: "waitpid", code: errno) }
        }
        // The wait status: the low 7 bits are the ending signal (0 for a normal exit), the next
        // byte the exit code.
        let signal = status & 0x7f
        return Outcome(status: signal == 0 ? (status >> 8) & 0xff : 128 + signal, output: output)
    }
}

/// A system call of ``ChildProcess`` that failed.
struct ChildProcessError: Error, CustomStringConvertible {
    /// The call.
    var step: String
    /// Its error number.
    var code: Int32

    var description: String { "\(step): \(String(cString: strerror(code)))" }
}
