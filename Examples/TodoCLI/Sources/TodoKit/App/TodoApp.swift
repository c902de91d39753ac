import Foundation

/// The `todo` program: from arguments and environment to output and an exit code.
///
/// Exit codes: 0 success (including "nothing to undo"), 1 bad input or an unusable data
/// file, 2 wrong usage (unknown command or option, missing argument).
public enum TodoApp {
    /// The history limit when neither `--history-limit` nor `TODO_HISTORY_LIMIT` sets one.
    public static let defaultHistoryLimit = 100

    /// Runs `todo` with `arguments` (without the program name) and returns the exit code.
    public static func run(
        arguments: [String],
        environment: [String: String],
        terminal: Terminal,
        console: any Console,
        readLine: () throws(TodoError) -> String?
    ) -> Int32 {
        let status = runCommand(arguments: arguments, environment: environment, terminal: terminal, console: console, readLine: readLine)
        if let failure = console.writeFailure {
            // Standard error may be the stream that failed; then there is nowhere to say it.
            console.writeError("todo: " + failure)
            return 1
        }
        return status
    }

    /// ``run(arguments:environment:terminal:console:readLine:)`` before the check of the
    /// output streams.
    private static func runCommand(
        arguments: [String],
        environment: [String: String],
        terminal: Terminal,
        console: any Console,
        readLine: () throws(TodoError) -> String?
    ) -> Int32 {
        let errorStyle = Style.forStream(isTerminal: terminal.error, environment: environment)
        func fail(_ error: TodoError) -> Int32 {
            let hint = error.kind == .usage ? " (run \"todo help\" for usage)" : ""
            console.writeError(errorStyle.red("todo:") + " " + error.message + hint)
            return error.exitCode
        }
        do {
            let invocation = try CommandParser.parseArguments(arguments)
            if invocation.command == .help {
                console.write(HelpText.text)
                return 0
            }
            let session = TodoSession(
                storage: try storage(for: invocation, environment: environment, console: console),
                style: Style.forStream(isTerminal: terminal.output, environment: environment)
            )
            if case let .watch(seconds, count) = invocation.command {
                return WatchCommand.run(storage: session.storage, seconds: seconds, count: count, console: console)
            }
            guard let command = invocation.command else {
                let shell = Shell(
                    session: session,
                    console: console,
                    isInteractive: terminal.input,
                    keepGoing: invocation.keepGoing,
                    errorStyle: errorStyle
                )
                if terminal.input, terminal.output {
                    let reader = TerminalLineReader(input: STDIN_FILENO, console: console)
                    defer { reader.restore() }
                    return shell.run(prompting: reader.readLine(prompt:))
                }
                return shell.run(readLine: readLine)
            }
            // Every command run inside a scope says so, failed ones too: a scope left open by a
            // script that stopped, or by a shell, would otherwise swallow later changes unseen.
            // `begin` says so itself.
            func noteOpenScope() {
                if command != .begin, command != .help, let level = session.storage.openScopeLevel(), level > 0 {
                    console.writeError(TodoSession.openScopeNote(level: level))
                }
            }
            do {
                try runShowingProgress(command, in: session) { text in
                    console.write(text)
                    return console.writeFailure == nil
                }
            } catch {
                let status = fail(error)
                // Not after a file that cannot be used: its one line says all there is, and
                // the file is not read again to say more.
                if error.kind != .dataFile { noteOpenScope() }
                return status
            }
            noteOpenScope()
            return 0
        } catch {
            return fail(error)
        }
    }

    /// The store the invocation names: a PostgreSQL server with `--database` (or
    /// `TODO_DATABASE` when no `--file` is given), else the SQLite file.
    static func storage(for invocation: Invocation, environment: [String: String], console: any Console) throws(TodoError) -> any TodoStorage {
        let limit = try historyLimit(invocation.historyLimit, environment: environment)
        let database = invocation.database ?? (invocation.file == nil ? environment["TODO_DATABASE"].flatMap { $0.isEmpty ? nil : $0 } : nil)
        if let database {
            let source = invocation.database != nil ? "--database" : "TODO_DATABASE"
            // Before anything connects: libpq's own message for a string it cannot read quotes
            // the string, password included.
            if let problem = TodoServerStore.conninfoProblem(database, source: source) { throw problem }
            return TodoServerStore(
                conninfo: database,
                author: try author(invocation.author, environment: environment),
                historyLimit: limit,
                source: source,
                lockTimeout: try lockTimeout(environment: environment),
                onWait: { [console] in console.writeError("todo: waiting for another connection to the server to release a lock on the list...") },
                notice: { console.writeError("todo: " + $0) },
                logHorizon: try logHorizon(environment: environment)
            )
        }
        let path = try DataLocation.resolve(flag: invocation.file, environment: environment)
        // A file keeps one history for everyone: `--as bob undo` would take back whoever's
        // last step while seeming to be bob's. Refused rather than ignored. (`TODO_USER` set
        // in the environment for a server is left alone: it names no one for this command.)
        if invocation.author != nil {
            throw .badInput("--as applies only to a list on a server (--database): the file \(PlainText.escaping(path)) keeps one history for everyone, so undo and redo there take back the last step whoever made it; leave out --as")
        }
        return TodoDataFile(
            path: path,
            historyLimit: limit,
            lockTimeout: try lockTimeout(environment: environment),
            legacyPath: DataLocation.legacyPath(flag: invocation.file, environment: environment),
            onWait: { console.writeError("todo: waiting for another todo to finish with \(path)...") },
            notice: { console.writeError("todo: " + $0) },
            singleCommand: invocation.command != nil
        )
    }

    /// `--as`, else `TODO_USER`, else the login name.
    static func author(_ flag: String?, environment: [String: String]) throws(TodoError) -> String {
        if let flag { return flag }
        if let name = environment["TODO_USER"], !name.isEmpty {
            return try CommandParser.checkAuthor(name, source: "TODO_USER")
        }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name.map({ String(cString: $0) }), !name.isEmpty {
            // Composed as `--as` names are, so that the login name and the same name typed
            // are one person.
            return name.precomposedStringWithCanonicalMapping
        }
        if let name = environment["USER"] ?? environment["LOGNAME"], !name.isEmpty { return name }
        throw .usage("who is running this? give --as NAME or set TODO_USER")
    }

    /// `TODO_LOG_HORIZON` (list versions the server's log keeps), else the default.
    static func logHorizon(environment: [String: String]) throws(TodoError) -> Int64 {
        guard let text = environment["TODO_LOG_HORIZON"], !text.isEmpty else { return TodoServerStore.defaultLogHorizon }
        guard let versions = Int64(text), versions >= 1 else {
            throw .usage("TODO_LOG_HORIZON needs a number of list versions, 1 or more, got \"\(PlainText.escaping(text))\"")
        }
        return versions
    }

    /// How long to wait for another process's lock when `TODO_LOCK_TIMEOUT` does not say.
    public static let defaultLockTimeout: Duration = .seconds(10)

    /// `TODO_LOCK_TIMEOUT` (seconds, fractions allowed), else the default.
    static func lockTimeout(environment: [String: String]) throws(TodoError) -> Duration {
        guard let text = environment["TODO_LOCK_TIMEOUT"], !text.isEmpty else { return defaultLockTimeout }
        guard let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
            throw .usage("TODO_LOCK_TIMEOUT needs a number of seconds, got \"\(text)\"")
        }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    /// `--history-limit`, else `TODO_HISTORY_LIMIT`, else the default.
    static func historyLimit(_ flag: Int?, environment: [String: String]) throws(TodoError) -> Int {
        if let flag { return flag }
        guard let text = environment["TODO_HISTORY_LIMIT"], !text.isEmpty else { return defaultHistoryLimit }
        guard let limit = Int(text), limit >= 0 else {
            throw .usage("TODO_HISTORY_LIMIT needs a whole number of steps, got \"\(text)\"")
        }
        return limit
    }
}
