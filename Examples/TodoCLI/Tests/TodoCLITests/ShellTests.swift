import Foundation
import Testing
import StateMachine
import TodoKit

/// The shell's modes (StateMachine states) and its confirmations, driven in-process with a
/// recording console, as a terminal user would.
@Suite("Interactive shell")
struct ShellTests {

    final class Fixture {
        let directory: URL
        let console = RecordingConsole()
        let shell: Shell

        init(interactive: Bool = true, keepGoing: Bool = false) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("todo-shell-\(UUID().uuidString)")
            let session = TodoSession(
                dataFile: TodoDataFile(path: directory.appendingPathComponent("todo.json").path, historyLimit: 100),
                style: .plain
            )
            shell = Shell(session: session, console: console, isInteractive: interactive, keepGoing: keepGoing, errorStyle: .plain)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        /// Runs the shell on `lines`, recording the prompt shown before each.
        func run(_ lines: [String]) -> (status: Int32, prompts: [String]) {
            var remaining = lines[...]
            var prompts: [String] = []
            let status = shell.run {
                prompts.append(self.shell.prompt)
                return remaining.popFirst()
            }
            return (status, prompts)
        }
    }

    @Test("The prompt follows the mode: normal, inside a scope, confirming")
    func prompts() throws {
        let fixture = try Fixture()
        let (status, prompts) = fixture.run(["add milk", "begin", "add eggs", "done 1", "clear", "y", "commit", "quit"])
        #expect(status == 0)
        #expect(prompts == [
            "todo> ", "todo> ", "todo (scope 1)> ", "todo (scope 1)> ", "todo (scope 1)> ",
            "Remove 1 done item? [y/N] ", "todo (scope 1)> ", "todo> ",
        ])
        #expect(fixture.shell.modeHistory == ["Normal", "InScope", "Confirming", "InScope", "Normal", "Finished"])
        #expect(fixture.console.output.contains("Cleared 1 done item"))
    }

    @Test("Anything but y or yes cancels a destructive command")
    func cancel() throws {
        let fixture = try Fixture()
        let (status, _) = fixture.run(["add a", "done 1", "clear", "n", "clear", "", "clear", "YES", "list"])
        #expect(status == 0)
        #expect(fixture.console.output.components(separatedBy: "Cancelled\n").count == 3)
        #expect(fixture.console.output.hasSuffix("todo> No items. Add one with: todo add <title>\ntodo> \n"))
    }

    @Test("rollback of a scope with changes asks; an empty one does not")
    func rollbackAsks() throws {
        let fixture = try Fixture()
        let (_, prompts) = fixture.run(["begin", "rollback", "begin", "add x", "rollback", "y"])
        #expect(prompts.contains(#"Abandon 1 change made since "begin"? [y/N] "#))
        #expect(prompts.filter { $0.hasPrefix("Abandon") }.count == 1)
        #expect(fixture.shell.modeHistory == ["Normal", "InScope", "Normal", "InScope", "Confirming", "Normal", "Finished"])
        #expect(fixture.console.output.contains("Rolled back an empty scope\n"))
        #expect(fixture.console.output.contains("Rolled back 1 change\n"))
    }

    @Test("Errors are reported and the interactive shell goes on; exit code 0")
    func errorsContinue() throws {
        let fixture = try Fixture()
        let (status, _) = fixture.run(["done 4", "frob", "add a"])
        #expect(status == 0)
        #expect(fixture.console.errors == [
            "todo: there is no item 4: the list is empty",
            #"todo: unknown command "frob" (type "help" for the commands)"#,
        ])
        #expect(fixture.console.output.contains(#"Added 1: "a""#))
    }

    @Test("Not interactive: no prompt, no question, and the first error stops")
    func script() throws {
        let fixture = try Fixture(interactive: false)
        let (status, _) = fixture.run(["add a", "done 1", "clear", "done 3", "add b"])
        #expect(status == 1)
        #expect(fixture.console.output == "Added 1: \"a\"\nDone 1: \"a\"\nCleared 1 done item (undo brings them back)\n")
        #expect(fixture.console.errors == ["todo: line 4: there is no item 3: the list is empty"])
    }

    @Test("The mode rules: nothing after Finished, and no leaving with a question pending")
    func rules() throws {
        let fixture = try Fixture()
        fixture.shell.set(Shell.Confirming(question: "?", command: .clear))
        #expect(throws: StateError.self) { try fixture.shell.transition(to: Shell.Finished()) }
        try fixture.shell.transition(to: Shell.InScope(level: 1))
        #expect(fixture.shell.prompt == "todo (scope 1)> ")
        try fixture.shell.transition(to: Shell.Finished())
        #expect(throws: StateError.self) { try fixture.shell.transition(to: Shell.Normal()) }
    }

    @Test("End of input while a question is pending cancels it, then leaves")
    func endOfInputCancels() throws {
        let fixture = try Fixture()
        let (status, _) = fixture.run(["add a", "done 1", "clear"])
        #expect(status == 0)
        #expect(fixture.console.output.hasSuffix("Cancelled\n"))
        #expect(fixture.shell.modeHistory == ["Normal", "Confirming", "Normal", "Finished"])
    }
}
