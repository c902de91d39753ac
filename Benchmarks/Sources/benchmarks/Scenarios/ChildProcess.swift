import CHeap
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with `posix_spawn` and `wait4`, for timing whole processes.
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
        /// The processor time it used, user and system, in milliseconds.
        var cpuMilliseconds: Double = 0
        /// Its peak resident memory, in kilobytes.
        var peakKilobytes: Int = 0
    }

    /// Lowers this process's recorded peak resident memory to its present size, so that the
    /// next child's `peakKilobytes` is the child's own whenever the child grows larger than
    /// this process is now (Linux; elsewhere it does nothing).
    ///
    /// A child of `posix_spawn` runs in this process's memory until its `exec`, and Linux
    /// keeps that memory's high-water mark as the child's `ru_maxrss` if it is the larger:
    /// after this process once held a 100,000-line script, every child reported its 46 MB.
    /// So freed heap pages are given back first (glibc keeps them), then writing "5" to
    /// `clear_refs` resets the mark to the present size; callers call it before their timed
    /// part.
    static func forgetPeak() {
        #if os(Linux)
        cheap_release_free_memory()
        guard let file = fopen("/proc/self/clear_refs", "w") else { return }
        fputs("5", file)
        fclose(file)
        #endif
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
        // `wait4`, not `waitpid`: it gives this child's own usage, where `getrusage` of the
        // children would mix every child's and keep the largest peak of all.
        var usage = rusage()
        while wait4(child, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw ChildProcessError(step: "wait4", code: errno) }
        }
        // The wait status: the low 7 bits are the ending signal (0 for a normal exit), the next
        // byte the exit code.
        let signal = status & 0x7f
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
        return Outcome(
            status: signal == 0 ? (status >> 8) & 0xff : 128 + signal,
            output: output,
            cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime),
            // Kilobytes on Linux, bytes on Darwin.
            peakKilobytes: {
                #if canImport(Darwin)
                Int(usage.ru_maxrss) / 1_024
                #else
                Int(usage.ru_maxrss)
                #endif
            }()
        )
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
