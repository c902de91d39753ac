import Foundation
import Revertible

/// A line on standard error that says how far long work has got ("importing: 40,000 of
/// 100,000 items"), rewritten in place with a carriage return.
///
/// An import of 100,000 items takes many seconds on a server, which in silence looks like a
/// hang. The line appears only once the work has run for ``delay``, so quick commands never
/// flash it, and only on a terminal: in a pipe or a log file, carriage returns and repeated
/// lines would be noise in what a script or a person reads later.
public final class ProgressLine: Sendable {
    /// What is being done, as the line starts: "importing".
    public let label: String
    /// Whether standard error is a terminal; nothing is ever written when it is not.
    public let isTerminal: Bool
    /// How long the work runs before the line is shown.
    public static let delay: Duration = .seconds(1)
    /// The least time between two redraws: a terminal redrawn for every row would slow the
    /// work it reports.
    static let redrawInterval: Duration = .milliseconds(100)

    private let write: @Sendable (String) -> Void
    private let start = ContinuousClock.now

    /// What the line shows and has shown; the work's thread and the ticker both draw.
    private struct State {
        var done: Int?
        var total: Int?
        var lastDrawn: ContinuousClock.Instant?
        /// The width of the text last drawn, to blank it out when done.
        var drawnWidth = 0
        /// The text last drawn: the same text is not drawn again.
        var drawnText = ""
        var finished = false
    }

    private let state = Locked(State())

    /// A line about `label` work, written with `write` (raw text: no newline is added) when
    /// `isTerminal`.
    public init(label: String, isTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.isTerminal = isTerminal
        self.write = write
    }

    /// A line on the process's standard error, shown only if it is a terminal, drawn by a
    /// ticker thread too: the work may spend seconds before it counts anything (an import
    /// reads and checks its file, then records its undo step), and the line shows
    /// `importing…` then rather than nothing.
    public static func onStandardError(label: String) -> ProgressLine {
        let line = ProgressLine(label: label, isTerminal: isatty(STDERR_FILENO) == 1) { text in
            var text = text
            // Best effort: a progress line that cannot be written is not worth failing for.
            text.withUTF8 { buffer in _ = Foundation.write(STDERR_FILENO, buffer.baseAddress, buffer.count) }
        }
        if line.isTerminal { line.startTicking() }
        return line
    }

    /// Redraws the line every ``redrawInterval`` from a thread of its own, until ``finish()``.
    func startTicking() {
        let thread = Thread { [self] in
            while !state.withLock({ $0.finished }) {
                drawIfDue()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.start()
    }

    /// Notes that `done` of `total` items are done, redrawing the line if it is due.
    public func update(done: Int, total: Int) {
        guard isTerminal else { return }
        state.withLock {
            $0.done = done
            $0.total = total
        }
        drawIfDue()
    }

    /// Draws the line if the work has run for ``delay`` and it was not drawn too recently.
    func drawIfDue() {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        guard now - start >= Self.delay else { return }
        state.withLock { state in
            guard !state.finished else { return }
            if let lastDrawn = state.lastDrawn, now - lastDrawn < Self.redrawInterval { return }
            state.lastDrawn = now
            let text = state.total.map { Self.text(label: label, done: state.done ?? 0, total: $0) } ?? "\(label)…"
            guard text != state.drawnText else { return }
            state.drawnText = text
            // Padded over a longer earlier text, so no stale digits are left at its end.
            let padding = String(repeating: " ", count: max(0, state.drawnWidth - text.count))
            write("\r" + text + padding)
            state.drawnWidth = text.count
        }
    }

    /// Blanks the line, if it was shown, so the command's own output starts on a clean line;
    /// nothing is drawn after.
    public func finish() {
        state.withLock { state in
            state.finished = true
            guard state.drawnWidth > 0 else { return }
            write("\r" + String(repeating: " ", count: state.drawnWidth) + "\r")
            state.drawnWidth = 0
            state.drawnText = ""
        }
    }

    /// The line's text: "importing: 40,000 of 100,000 items".
    public static func text(label: String, done: Int, total: Int) -> String {
        "\(label): \(grouped(done)) of \(grouped(total)) item\(total == 1 ? "" : "s")"
    }

    /// `number` with commas between groups of three digits (100,000), the same everywhere:
    /// not the locale's, so tests and transcripts read alike on every machine.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }
}
