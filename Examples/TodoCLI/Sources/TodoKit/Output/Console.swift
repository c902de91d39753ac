/// Where a session's text goes. The real one writes straight to the file descriptors,
/// unbuffered, so a confirmation is out the moment its change is on disk (a script killed
/// right after cannot lose an acknowledgement sitting in a buffer); tests collect the text.
public protocol Console: AnyObject {
    /// Writes `text` as is to standard output.
    func write(_ text: String)
    /// Writes one line to standard error.
    func writeError(_ line: String)
    /// Why a write failed (standard output full or closed), if one did: the command's result
    /// did not reach its reader, so `todo` exits 1.
    var writeFailure: String? { get }
}

extension Console {
    /// Writes `text` and a newline to standard output.
    func line(_ text: String) {
        write(text + "\n")
    }
}

/// The process's standard output and standard error.
public final class StandardConsole: Console {
    public private(set) var writeFailure: String?

    public init() {}

    public func write(_ text: String) {
        if let reason = writeFully(text, to: STDOUT_FILENO), writeFailure == nil {
            writeFailure = "cannot write to standard output: \(reason)"
        }
    }

    public func writeError(_ line: String) {
        if let reason = writeFully(line + "\n", to: STDERR_FILENO), writeFailure == nil {
            writeFailure = "cannot write to standard error: \(reason)"
        }
    }
}

/// Writes all of `text` to `descriptor`, retrying partial writes; the system's reason if a
/// write fails.
private func writeFully(_ text: String, to descriptor: Int32) -> String? {
    var text = text
    return text.withUTF8 { buffer -> String? in
        var done = 0
        while done < buffer.count {
            let result = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return systemErrorDescription()
            }
            done += result
        }
        return nil
    }
}

/// A console that keeps what is written, for tests.
public final class RecordingConsole: Console {
    public private(set) var output = ""
    public private(set) var errors: [String] = []
    /// Never set: recording cannot fail.
    public let writeFailure: String? = nil

    public init() {}

    public func write(_ text: String) {
        output += text
    }

    public func writeError(_ line: String) {
        errors.append(line)
    }
}
