/// Where a session's text goes. The real one writes straight to the file descriptors,
/// unbuffered, so a confirmation is out the moment its change is on disk (a script killed
/// right after cannot lose an acknowledgement sitting in a buffer); tests collect the text.
public protocol Console: AnyObject {
    /// Writes `text` as is to standard output.
    func write(_ text: String)
    /// Writes one line to standard error.
    func writeError(_ line: String)
}

extension Console {
    /// Writes `text` and a newline to standard output.
    func line(_ text: String) {
        write(text + "\n")
    }
}

/// The process's standard output and standard error.
public final class StandardConsole: Console {
    public init() {}

    public func write(_ text: String) {
        writeFully(text, to: STDOUT_FILENO)
    }

    public func writeError(_ line: String) {
        writeFully(line + "\n", to: STDERR_FILENO)
    }
}

/// Writes all of `text` to `descriptor`, retrying partial writes; gives up on an error (a
/// closed pipe), as there is nowhere left to report it.
private func writeFully(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
        var done = 0
        while done < buffer.count {
            let result = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return
            }
            done += result
        }
    }
}

/// A console that keeps what is written, for tests.
public final class RecordingConsole: Console {
    public private(set) var output = ""
    public private(set) var errors: [String] = []

    public init() {}

    public func write(_ text: String) {
        output += text
    }

    public func writeError(_ line: String) {
        errors.append(line)
    }
}
