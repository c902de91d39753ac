// The `todo` executable: everything but reading the process's own state lives in TodoKit,
// where the tests can reach it.
import Foundation
import TodoKit

// A reader that went away (`todo list | head -0`) makes a write fail with EPIPE, which the
// console reports like any failed write (exit 1, the data as the command left it), instead of
// SIGPIPE killing the process wherever it stands.
signal(SIGPIPE, SIG_IGN)

exit(TodoApp.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    terminal: .current,
    console: StandardConsole(),
    readLine: LineReader(descriptor: STDIN_FILENO).next
))
