/// Why a command failed, with the exit code it ends the process with.
///
/// Whatever the kind, a failed command has changed nothing: checks come before the write.
public struct TodoError: Error, Equatable, Sendable {

    public enum Kind: Equatable, Sendable {
        /// The command line itself is wrong (unknown command or flag, missing argument):
        /// exit code 2, with a hint to read the help.
        case usage
        /// The command is well formed but cannot apply (no such item, empty title, unknown
        /// tag, no open scope): exit code 1.
        case badInput
        /// The data file cannot be read or written: exit code 1.
        case dataFile
    }

    public var kind: Kind
    /// One line, without the `todo: ` prefix.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public static func usage(_ message: String) -> TodoError { TodoError(.usage, message) }
    public static func badInput(_ message: String) -> TodoError { TodoError(.badInput, message) }

    /// The error for a data file that cannot be used; it names the file. Control characters
    /// in the path or in the reason (SQLite quotes a damaged schema's text, line breaks and
    /// all) are escaped, so the message stays one line.
    public static func dataFile(_ path: String, _ problem: DataFileProblem) -> TodoError {
        let message = problem.isAboutContents
            ? "\(path): \(problem.reason); the file was left untouched"
            : "\(path): \(problem.reason)"
        return TodoError(.dataFile, PlainText.escaping(message))
    }

    /// The process exit code for this error.
    public var exitCode: Int32 {
        kind == .usage ? 2 : 1
    }
}
