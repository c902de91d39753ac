/// What the process was asked to do: the options of the command line, and the command, if
/// any (without one, `todo` runs the shell or a script from standard input).
public struct Invocation: Equatable, Sendable {
    /// `--file PATH`.
    public var file: String?
    /// `--history-limit N`.
    public var historyLimit: Int?
    /// `--database postgresql://...`: the list on a PostgreSQL server instead of a file.
    public var database: String?
    /// `--as NAME`: whose history the commands use on a server.
    public var author: String?
    /// `--keep-going`: a script goes on after a failed line.
    public var keepGoing = false
    /// The one-shot command, or `nil` for the shell or a script.
    public var command: Command?

    public init(file: String? = nil, historyLimit: Int? = nil, keepGoing: Bool = false, command: Command? = nil) {
        self.file = file
        self.historyLimit = historyLimit
        self.keepGoing = keepGoing
        self.command = command
    }
}
