/// Which standard streams are terminals: that decides between the shell and a script, and
/// whether to use color.
public struct Terminal: Sendable {
    public var input: Bool
    public var output: Bool
    public var error: Bool

    public init(input: Bool, output: Bool, error: Bool) {
        self.input = input
        self.output = output
        self.error = error
    }

    /// The process's own streams.
    public static var current: Terminal {
        Terminal(input: isatty(STDIN_FILENO) == 1, output: isatty(STDOUT_FILENO) == 1, error: isatty(STDERR_FILENO) == 1)
    }
}
