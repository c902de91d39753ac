import Foundation

/// `todo watch`: prints the changes to a shared list as they are committed, with who made
/// them, one line each on standard output, until Ctrl-C, the end of standard input, or the
/// bound of `--for` / `--count`.
///
/// The server store notifies the channel ``ChangeFeed/channel`` in the transaction of every
/// change it writes, so the notification arrives exactly when the change is committed, and
/// never for one rolled back. The watcher waits on its connection's socket, and on each
/// notification compares the list with the one it last saw (``ChangeFeed``). When the
/// connection drops (a server restart), it connects again with growing pauses and says
/// what changed while it was away, from the same comparison.
enum WatchCommand {
    /// The longest pause between two attempts to connect again.
    static let longestPause: Duration = .seconds(5)

    /// Runs the watch on `storage`'s list; returns the exit code. `watchingInput`: stop at the
    /// end of standard input (off in tests that run it in-process).
    static func run(storage: any TodoStorage, seconds: Double?, count: Int?, console: any Console, watchingInput: Bool = true) -> Int32 {
        guard let store = storage as? TodoServerStore else {
            console.writeError("todo: watch needs a list shared on a server (--database or TODO_DATABASE): \(storage.displayName) is a file, which no one else changes while you watch")
            return 1
        }
        let clock = ContinuousClock()
        let deadline = seconds.map { clock.now + .milliseconds(Int(($0 * 1000).rounded(.up))) }
        func remaining() -> Duration { deadline.map { $0 - clock.now } ?? .seconds(3600) }
        let feed = ChangeFeed(conninfo: store.conninfo, displayName: store.displayName, listens: true)
        do {
            try feed.connect()
            _ = try feed.changes()
        } catch {
            console.writeError("todo: \(store.displayName): cannot watch the list: \(store.reason(error))")
            return 1
        }
        console.writeError("todo: watching \(store.displayName) for changes (Ctrl-C to stop)")
        var printed = 0
        /// Writes the lines of `changes`; false when standard output is gone.
        func show(_ changes: [ListChange]) -> Bool {
            let lines = ListChange.lines(changes)
            for line in lines { console.line(line) }
            printed += lines.count
            return console.writeFailure == nil
        }
        while true {
            if let count, printed >= count { return 0 }
            guard remaining() > .zero else { return 0 }
            guard let connection = feed.connection else { return 1 }
            switch connection.waitForInput(timeout: min(remaining(), .seconds(1)), watchingInput: watchingInput) {
            case .inputEnded:
                return 0
            case .timedOut:
                continue
            case .readable:
                do {
                    // Anything the server sent but a notification (a notice) is read and dropped.
                    guard !(try connection.receivedNotifications()).isEmpty else { continue }
                    guard show(try feed.changes()) else { return 1 }
                } catch let error as PostgresError where error.kind == .connectionLost || !connection.isConnected {
                    console.writeError("todo: lost the connection to the server; reconnecting…")
                    guard let missed = reconnect(feed, until: remaining, watchingInput: watchingInput) else { return 0 }
                    console.writeError("todo: reconnected; \(missed.count) change\(missed.count == 1 ? "" : "s") while away\(missed.isEmpty ? "" : ":")")
                    guard show(missed) else { return 1 }
                } catch {
                    console.writeError("todo: \(store.displayName): \(store.reason(error))")
                    return 1
                }
            }
        }
    }

    /// Connects again, with pauses that double up to ``longestPause``, and returns what
    /// changed while away; `nil` when the time ran out or standard input ended first.
    private static func reconnect(_ feed: ChangeFeed, until remaining: () -> Duration, watchingInput: Bool) -> [ListChange]? {
        var pause: Duration = .milliseconds(250)
        while remaining() > .zero {
            if let missed = try? { () throws -> [ListChange] in
                try feed.connect()
                return try feed.changes()
            }() {
                return missed
            }
            if waitForInputEnd(min(pause, remaining()), watchingInput: watchingInput) { return nil }
            pause = min(pause * 2, longestPause)
        }
        return nil
    }

    /// Sleeps for `duration`, or until standard input ends (true then).
    private static func waitForInputEnd(_ duration: Duration, watchingInput: Bool) -> Bool {
        let milliseconds = pollMilliseconds(duration)
        guard watchingInput else {
            usleep(UInt32(milliseconds) * 1000)
            return false
        }
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 512)
        return read(STDIN_FILENO, &buffer, buffer.count) <= 0
    }
}
