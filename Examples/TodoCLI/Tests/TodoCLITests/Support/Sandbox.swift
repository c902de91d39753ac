import Foundation
import Testing

/// What one run of `todo` did.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output split into lines, without the final empty one.
    var lines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// A temporary directory to run the `todo` binary in, with an environment that points every
/// path into it, so no test ever touches the real home or data directory.
final class Sandbox {
    let directory: URL
    /// The data file every run uses through `TODO_FILE`, unless a test overrides it.
    let file: String
    /// The environment of every run: fixed, not inherited, so a developer's `NO_COLOR` or
    /// `TODO_FILE` cannot change what the tests see.
    var environment: [String: String]

    /// A command that runs the binary for the sandbox (`setpriv ... --`, to run it as another
    /// user), or empty to run it directly.
    var launcher: [String] = []

    /// A sandbox in a new directory under `base` (the temporary directory unless given).
    init(base: URL = FileManager.default.temporaryDirectory) throws {
        directory = base.appendingPathComponent("todo-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("todo.db").path
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_DATA_HOME": directory.appendingPathComponent("xdg").path,
            "TODO_FILE": file,
        ]
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The `todo` binary; fails the test if it was not built.
    static func binary() throws -> URL {
        try #require(TodoBinary.url, "the todo binary was not found next to the tests; run swift build first")
    }

    /// Runs `todo arguments` to completion. Standard output and error go to files, not pipes,
    /// so a long output can never block the child.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String?] = [:]) throws -> RunResult {
        let process = Process()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = launcher.dropFirst() + [try Self.binary().path] + arguments
        } else {
            process.executableURL = try Self.binary()
            process.arguments = arguments
        }
        process.environment = mergedEnvironment(extra)
        let id = UUID().uuidString
        let outURL = directory.appendingPathComponent(".out-\(id)")
        let errURL = directory.appendingPathComponent(".err-\(id)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        if let stdin {
            let inURL = directory.appendingPathComponent(".in-\(id)")
            try Data(stdin.utf8).write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let status = try process.runAndWaitForExit()
        try out.close()
        try err.close()
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        return RunResult(
            status: status,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8)
        )
    }

    /// Runs `todo arguments` and requires it to succeed, with nothing on standard error but
    /// the note a command run inside a scope gives (issue 27: every one does).
    @discardableResult
    func ok(_ arguments: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let result = try run(arguments, stdin: stdin)
        #expect(result.status == 0, "todo \(arguments.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty || Self.isScopeNote(result.stderr), "\(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// Whether `text` is exactly the line saying a scope is open.
    static func isScopeNote(_ text: String) -> Bool {
        (1...20).contains { text == scopeNote(level: $0) }
    }

    /// The line saying a scope of `level` is open, with its newline.
    static func scopeNote(level: Int) -> String {
        "todo: note: a scope opened by \"begin\" is still open (level \(level)); later commands join it until \"commit\" or \"rollback\"\n"
    }

    /// The titles `todo list --json` reports, in list order.
    func titles() throws -> [String] {
        try items().map(\.title)
    }

    /// The items `todo list --json` reports.
    func items() throws -> [ListedItem] {
        let result = try ok("list", "--json")
        return try JSONDecoder().decode([ListedItem].self, from: Data(result.stdout.utf8))
    }

    /// The data file's bytes, or `nil` if it does not exist.
    func fileBytes(_ path: String? = nil) -> Data? {
        FileManager.default.contents(atPath: path ?? file)
    }

    /// The names of the files in the sandbox directory (without the runner's own).
    func directoryEntries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !$0.hasPrefix(".out-") && !$0.hasPrefix(".err-") && !$0.hasPrefix(".in-") }
            .sorted()
    }

    func mergedEnvironment(_ extra: [String: String?]) -> [String: String] {
        var environment = self.environment
        for (key, value) in extra {
            environment[key] = value
        }
        return environment
    }
}

/// One entry of `todo list --json`.
struct ListedItem: Decodable, Equatable {
    var position: Int
    var title: String
    var done: Bool
}
