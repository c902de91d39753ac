import Foundation

/// One `NOTIFY` the server delivered to a connection that listens.
struct PostgresNotification: Equatable {
    /// The channel it was sent on (`todo_changes`).
    var channel: String
    /// The text sent with it (the list's version, for `todo_changes`).
    var payload: String
}

/// What waiting on a listening connection found.
enum ListenOutcome: Equatable {
    /// The server sent something (notifications, or the end of the connection): read it
    /// with ``PostgresConnection/receivedNotifications()``.
    case readable
    /// Standard input, watched alongside, reached its end.
    case inputEnded
    /// Nothing arrived in time.
    case timedOut
}

extension PostgresConnection {
    /// Waits up to `timeout` for the server to send something on this connection, and, with
    /// `watchingInput`, for standard input to end: a watcher run as `todo watch` in a pipe
    /// stops when its input does, as other filters do.
    ///
    /// `poll` on the socket rather than a blocking call into libpq: libpq has no call that
    /// waits for a notification, and polling lets the watcher bound its wait (`--for`).
    func waitForInput(timeout: Duration, watchingInput: Bool) -> ListenOutcome {
        var descriptors = [pollfd(fd: library.socket(handle), events: Int16(POLLIN), revents: 0)]
        if watchingInput { descriptors.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = pollMilliseconds(timeout)
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard ready > 0 else { return .timedOut }
        if descriptors[0].revents != 0 { return .readable }
        if watchingInput, descriptors[1].revents != 0 {
            // Readable input that is not its end is read and dropped: only the end matters.
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count <= 0 { return .inputEnded }
        }
        return .timedOut
    }

    /// The notifications that arrived, after reading whatever the server sent; throws when
    /// the connection is gone (a server restart closes it).
    func receivedNotifications() throws(PostgresError) -> [PostgresNotification] {
        // PQconsumeInput returns 0 when reading failed: the server closed the connection.
        if library.consumeInput(handle) == 0 || !isConnected {
            let message = library.errorMessage(handle).map { String(cString: $0) } ?? "the server closed the connection"
            throw PostgresError(kind: .connectionLost, message: message)
        }
        var found: [PostgresNotification] = []
        while let notify = library.notifies(handle) {
            // `PGnotify` is { char *relname; int be_pid; char *extra; ... }: read by offset,
            // since a Swift struct's layout is not promised to match C's.
            let pointerSize = MemoryLayout<UnsafeRawPointer>.size
            let alignment = MemoryLayout<UnsafeRawPointer>.alignment
            let extraOffset = (pointerSize + MemoryLayout<Int32>.size + alignment - 1) / alignment * alignment
            let channel = notify.load(fromByteOffset: 0, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            let payload = notify.load(fromByteOffset: extraOffset, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            library.freeMemory(notify)
            found.append(PostgresNotification(channel: channel, payload: payload))
        }
        return found
    }
}

/// `duration` as `poll`'s timeout: whole milliseconds, rounded up so a wait is never cut
/// short to nothing, and at most a day.
func pollMilliseconds(_ duration: Duration) -> Int32 {
    Int32(min(86_400_000, max(0, (duration / .milliseconds(1)).rounded(.up))))
}
