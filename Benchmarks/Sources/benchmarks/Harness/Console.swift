import Foundation

/// Human-readable output that must never mix with the JSON on standard output.
enum Console {

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
