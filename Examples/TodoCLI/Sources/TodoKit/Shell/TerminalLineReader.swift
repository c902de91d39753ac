#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines from a terminal with a ``LineEditor``: the terminal is in raw mode (no echo,
/// no line buffering, Ctrl-C and Ctrl-D delivered as bytes) from the reader's creation until
/// ``restore()``, so that no key typed early, or while a command runs, is taken by the
/// terminal's own line editing or turned into a signal.
public final class TerminalLineReader {
    private let input: Int32
    private let console: any Console
    private var editor = LineEditor()
    private var decoder = KeyDecoder()
    /// The terminal's settings before, to restore; `nil` if raw mode could not be set.
    private var original: termios?

    /// A reader of `input`, a terminal, drawing on `console`; puts the terminal in raw mode.
    public init(input: Int32, console: any Console) {
        self.input = input
        self.console = console
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { return }
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        // Enter arrives as a carriage return; flow control (Ctrl-S, Ctrl-Q) is off. Output
        // processing stays on, so "\n" still starts a new row.
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSADRAIN, &raw) == 0 else { return }
        original = settings
    }

    deinit {
        restore()
    }

    /// Puts the terminal back as it was.
    public func restore() {
        guard var settings = original else { return }
        _ = tcsetattr(input, TCSADRAIN, &settings)
        original = nil
    }

    /// The next line, after showing `prompt`; `nil` on Ctrl-D on an empty line, or when the
    /// terminal is gone. Ctrl-C abandons the line and returns an empty one.
    public func readLine(prompt: String) -> String? {
        editor.startLine()
        console.write(editor.render(prompt: prompt))
        while true {
            var byte: UInt8 = 0
            let count = read(input, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            for key in decoder.feed(byte) {
                switch editor.handle(key) {
                case .editing:
                    console.write(editor.render(prompt: prompt))
                case let .line(line):
                    console.write("\n")
                    return line
                case .cancelled:
                    // As shells do: the abandoned line stays on screen, marked. An empty line
                    // is returned, so the shell shows a fresh prompt, and a question waiting
                    // for its answer ("[y/N]") takes it as no, rather than take the next
                    // command typed as its answer.
                    console.write("^C\n")
                    return ""
                case .endOfInput:
                    return nil
                }
            }
        }
    }
}
