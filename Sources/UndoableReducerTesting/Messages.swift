/// The failure messages of ``TestStore``, word for word (its tests compare them exactly).
enum Message {
    static func stateMismatch(after step: String, expected: Any, actual: Any) -> String {
        """
        State after \(step) does not match the expectation (- expected, + actual):

        \(dumpDiff(expected, actual) ?? "  (the states differ but dump alike)")
        """
    }

    static func needlessExpectation(after step: String) -> String {
        "The expectation closure changed nothing and neither did \(step); leave the closure out."
    }

    static func expectationThrew(_ error: any Error, after step: String) -> String {
        "The expectation closure threw after \(step): \(error)"
    }

    static func unhandledBeforeSend(_ actions: [Any], sending action: Any) -> String {
        "\(count(actions.count, "action")) received before sending \(describe(action)) must be received first:\n"
            + list(actions)
    }

    static func nothingReceived(expected: String) -> String {
        "Expected to receive \(expected), but no action was received and no effect is running."
    }

    static func receiveTimedOut(expected: String, timeout: Duration, running: [Any]) -> String {
        "Expected to receive \(expected), but none arrived within \(timeout) while effects were running, started by:\n"
            + list(running)
    }

    static func unexpectedAction(expected: String, expectedAction: Any?, received: Any) -> String {
        guard let expectedAction, let diff = dumpDiff(expectedAction, received) else {
            return "Expected to receive \(expected), but received \(describe(received))."
        }
        return "Received an unexpected action (- expected, + received):\n\n\(diff)"
    }

    static func effectsStillRunning(startedBy origins: [Any]) -> String {
        let effects = origins.count == 1 ? "An effect is" : "\(origins.count) effects are"
        return "\(effects) still running at the end of the test, started by:\n" + list(origins)
            + "\nReceive their actions, cancel them, or call skipInFlightEffects()."
    }

    static func unreceivedActions(_ actions: [Any]) -> String {
        "\(count(actions.count, "action")) received but never asserted with receive:\n" + list(actions)
    }

    static func undoRefused(_ command: String, step: Int, of total: Int, label: String?, error: Any) -> String {
        let name = label.map { " (“\($0)”)" } ?? ""
        return "\(command) step \(step) of \(total)\(name) was refused: \(error)"
    }

    static func undoDidNotReturn(expected: Any, actual: Any) -> String {
        """
        Undoing every step does not return to the initial state (- initial, + after undoing):

        \(dumpDiff(expected, actual) ?? "  (the states differ but dump alike)")
        """
    }

    static func redoDidNotReturn(expected: Any, actual: Any) -> String {
        """
        Redoing every step does not return to the end state (- end, + after redoing):

        \(dumpDiff(expected, actual) ?? "  (the states differ but dump alike)")
        """
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
    }

    private static func list(_ values: [Any]) -> String {
        values.map { "  " + describe($0) }.joined(separator: "\n")
    }
}
