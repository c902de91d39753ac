import Foundation

/// Reads the lines of a script from a file descriptor (standard input), each at most
/// ``maximumBytes`` long: a stream without line breaks (`todo < /dev/zero`) is refused after
/// that many bytes instead of read into memory without end, and a descriptor that cannot be
/// read (`todo < /tmp`, a folder) is an error, not the end of the script.
public final class LineReader {
    /// The longest line, in bytes, without its line break: room for any command with a
    /// title of ``PlainText/maximumBytes``.
    public static let maximumBytes = 65_536

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    private var atEnd = false
    /// How many lines were returned, for messages.
    private var lineNumber = 0

    /// A reader of `descriptor`, which stays open and is not closed by the reader.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line, without its `\n` (or `\r\n`); `nil` at the end of the input. Invalid
    /// UTF-8 becomes U+FFFD, which titles refuse.
    public func next() throws(TodoError) -> String? {
        var searched = start
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                return take(upTo: end, skipping: newline + 1)
            }
            searched = buffer.count
            guard buffer.count - start <= Self.maximumBytes else {
                throw .badInput("line \(lineNumber + 1) is longer than \(Self.maximumBytes) bytes (one command a line); stopped there")
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                return take(upTo: buffer.count, skipping: buffer.count)
            }
            try fill()
        }
    }

    /// The bytes from `start` to `end` as a line; reading goes on at `next`.
    private func take(upTo end: Int, skipping next: Int) -> String {
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = next
        lineNumber += 1
        if start > 65_536 {
            buffer.removeSubrange(..<start)
            start = 0
        }
        return line
    }

    /// Reads the next chunk, or notes the end of the input.
    private func fill() throws(TodoError) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw .badInput("cannot read the script from standard input: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEnd = true } else { buffer += chunk[..<count] }
            return
        }
    }
}
