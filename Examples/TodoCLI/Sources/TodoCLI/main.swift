// The `todo` executable: everything but reading the process's own state lives in TodoKit,
// where the tests can reach it.
import Foundation
import TodoKit

exit(TodoApp.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    terminal: .current,
    console: StandardConsole(),
    readLine: { readLine() }
))
