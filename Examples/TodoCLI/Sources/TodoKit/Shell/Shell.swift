import Foundation
import StateMachine

/// The interactive shell (`todo` on a terminal) and the script runner (`todo < script`):
/// reads lines, runs each as a command, and keeps its mode, a ``StateMachine/Stateful``
/// state, in step with the data file.
///
/// On a terminal, destructive commands (`clear`, `rollback` of a scope with changes) ask
/// first; errors are reported and the shell goes on. In a script nothing asks, and the first
/// error stops it with exit code 1, unless `--keep-going`.
public final class Shell: Stateful {
    public var state: Any?
    /// What the shell shows before reading a line; set by the hook on every mode change.
    public private(set) var prompt = ""
    /// The modes the shell went through, by name, for tests and debugging.
    public private(set) var modeHistory: [String] = []

    let session: TodoSession
    let console: any Console
    let isInteractive: Bool
    let keepGoing: Bool
    let errorStyle: Style
    /// Others' changes to a shared list, shown between prompts (Shell+OthersChanges.swift).
    lazy var othersChanges: ChangeFeed? = makeOthersChangesFeed()

    public init(session: TodoSession, console: any Console, isInteractive: Bool, keepGoing: Bool, errorStyle: Style) {
        self.session = session
        self.console = console
        self.isInteractive = isInteractive
        self.keepGoing = keepGoing
        self.errorStyle = errorStyle
        set(Normal())
    }

    /// The hook: every mode change updates the prompt.
    public func stateDidChange(from oldState: Any?, to newState: Any?) {
        switch newState {
        case let scope as InScope:
            prompt = "todo (scope \(scope.level))> "
        case let confirming as Confirming:
            prompt = "\(confirming.question) [y/N] "
        case is Finished:
            prompt = ""
        default:
            prompt = "todo> "
        }
        let name = newState.map { String(describing: type(of: $0)) } ?? "none"
        if modeHistory.last != name { modeHistory.append(name) }
    }

    /// Reads lines from `readLine` until it returns `nil` or `quit`, writing the prompt
    /// before each when interactive; returns the exit code.
    public func run(readLine: () throws(TodoError) -> String?) -> Int32 {
        run { (prompt) throws(TodoError) in
            if isInteractive { console.write(prompt) }
            return try readLine()
        }
    }

    /// Reads lines from `readLine`, which shows the prompt it is given (a line editor
    /// redraws it), until it returns `nil` or `quit`; returns the exit code.
    ///
    /// Leaving a shell or ending a script with a scope open says so: a script that stopped
    /// at a failed line inside `begin`, or ran on with `--keep-going`, would otherwise leave
    /// the scope for later commands to join unseen.
    ///
    /// A line that cannot be read (too long, or input that is not readable text) stops it
    /// with exit code 1, `--keep-going` or not: where the next line starts is unknown.
    public func run(prompting readLine: (_ prompt: String) throws(TodoError) -> String?) -> Int32 {
        defer { announceOpenScope() }
        if isInteractive {
            syncMode()
            console.line("todo \(session.storage.displayName): type \"help\" for commands, \"quit\" to leave")
        }
        var lineNumber = 0
        var failed = false
        while !isIn(Finished.self) {
            let next: String?
            if isInteractive { showOthersChanges() }
            do {
                next = try readLine(isInteractive ? prompt : "")
            } catch {
                failed = true
                report(error, line: nil)
                finish()
                break
            }
            guard let line = next else {
                if isInteractive { console.write("\n") }
                finish()
                break
            }
            lineNumber += 1
            if let confirming = currentState(as: Confirming.self) {
                answer(line, to: confirming)
                continue
            }
            do {
                guard let command = try CommandParser.parseLine(LineTokenizer.words(of: line)) else { continue }
                if command == .quit {
                    finish()
                    continue
                }
                if isInteractive, let question = session.confirmationQuestion(for: command) {
                    enter(Confirming(question: question, command: command))
                    continue
                }
                try session.run(command, writing: write)
                if console.writeFailure != nil {
                    // The output is gone: stop, rather than change things no one sees.
                    failed = true
                    finish()
                    continue
                }
                if isInteractive || command.isChange { syncMode() }
            } catch {
                failed = true
                report(error, line: lineNumber)
                if !isInteractive && !keepGoing { finish() }
            }
        }
        return failed && !isInteractive ? 1 : 0
    }

    /// Says that a scope is still open, if one is: otherwise later commands would join the
    /// scope without a word.
    private func announceOpenScope() {
        let level = session.scopeLevel()
        guard level > 0 else { return }
        console.writeError(TodoSession.openScopeNote(level: level))
    }

    /// Writes a command's output; whether standard output still takes more.
    private func write(_ text: String) -> Bool {
        console.write(text)
        return console.writeFailure == nil
    }

    /// Leaves the shell, cancelling a pending question first (the rules insist).
    private func finish() {
        if isIn(Confirming.self) {
            console.line("Cancelled")
            syncMode()
        }
        enter(Finished())
    }

    /// Runs the waiting command on "y" or "yes", cancels it otherwise.
    private func answer(_ line: String, to confirming: Confirming) {
        let reply = line.trimmingCharacters(in: .whitespaces).lowercased()
        if reply == "y" || reply == "yes" {
            do {
                try session.run(confirming.command, writing: write)
            } catch {
                report(error, line: nil)
            }
        } else {
            console.line("Cancelled")
        }
        syncMode()
    }

    /// Moves to the mode the data file's scope level calls for.
    private func syncMode() {
        let level = session.scopeLevel()
        if level > 0 {
            enter(InScope(level: level))
        } else {
            enter(Normal())
        }
    }

    /// Changes mode; the rules above allow every change this shell makes, so a refusal is a
    /// bug in the shell, not something a user can cause.
    private func enter<S: State>(_ mode: S) where S.Owner == Shell {
        do {
            try transition(to: mode)
        } catch {
            preconditionFailure("shell mode change refused: \(error)")
        }
    }

    private func report(_ error: any Error, line: Int?) {
        let error = error as? TodoError ?? TodoError(.badInput, String(describing: error))
        var message = error.message
        if !isInteractive, let line { message = "line \(line): " + message }
        if error.kind == .usage {
            message += isInteractive ? " (type \"help\" for the commands)" : " (run \"todo help\" for usage)"
        }
        console.writeError(errorStyle.red("todo:") + " " + message)
    }
}
