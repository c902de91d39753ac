import Foundation
@testable import TodoKit
import Testing

/// A PostgreSQL server of the tests' own: a new cluster in a temporary folder, listening only
/// on a Unix socket there, started on first use and stopped when the test process exits.
///
/// Nothing needs to be running: the server's binaries (`initdb`, `pg_ctl`, from the system's
/// `postgresql` package) are enough. The server refuses to run as root, so under root it runs
/// as an ordinary user (`TODO_TEST_POSTGRES_USER`, else `postgres`, else `nobody`). Where no
/// binaries are installed the tests that need it are skipped and say why, unless
/// `TODO_REQUIRE_POSTGRES=1` (as `.ci/run` sets), which turns the skip into a failure.
enum ThrowawayPostgres {

    /// Whether the tests may run: binaries found, or required (then a missing server fails).
    static var isAvailable: Bool {
        binaryFolder != nil || isRequired
    }

    /// Why the server tests were skipped, for the trait's comment.
    static let skipReason: Comment = "PostgreSQL's initdb and pg_ctl were not found (apt-get install postgresql); set TODO_REQUIRE_POSTGRES=1 to fail instead of skipping"

    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["TODO_REQUIRE_POSTGRES"] == "1"
    }

    /// The running server's connection string for `database`, starting the server first.
    static func conninfo(database: String = "postgres") throws -> String {
        let server = try shared.get()
        return "host=\(server.socketFolder) port=\(server.port) user=todo dbname=\(database)"
    }

    /// A new empty database on the server, for one test.
    static func newDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let admin = try PostgresConnection(try conninfo())
        try admin.query("CREATE DATABASE \(name)")
        return try conninfo(database: name)
    }

    /// The folder of `initdb` and `pg_ctl`: the newest under /usr/lib/postgresql (Debian's
    /// layout), else one on `PATH`.
    static let binaryFolder: String? = {
        let debian = "/usr/lib/postgresql"
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: debian) {
            let newest = versions.compactMap { Int($0) }.sorted().last
            if let newest, FileManager.default.isExecutableFile(atPath: "\(debian)/\(newest)/bin/initdb") {
                return "\(debian)/\(newest)/bin"
            }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            if FileManager.default.isExecutableFile(atPath: "\(folder)/initdb") { return String(folder) }
        }
        return nil
    }()

    struct Server: Sendable {
        var folder: String
        var socketFolder: String
        var port: Int
        var binaries: String
        var user: String?
    }

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    private static let shared: Result<Server, SetupError> = start()

    private static func start() -> Result<Server, SetupError> {
        guard let binaries = binaryFolder else {
            return .failure(SetupError(description: "no PostgreSQL binaries: \(skipReason)"))
        }
        let folder = "/tmp/todo-postgres-\(getpid())-\(UUID().uuidString.prefix(8))"
        let user: String? = getuid() == 0 ? serverUser() : nil
        stopServersOfEndedProcesses(binaries: binaries, user: user)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if let user {
                try runChecked(["/bin/chown", user, folder], as: nil)
            }
            try runChecked(["\(binaries)/initdb", "-D", "\(folder)/data", "-U", "todo", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"], as: user)
            let options = "-k \(folder) -c listen_addresses='' -c fsync=off -c max_connections=100"
            try runChecked(["\(binaries)/pg_ctl", "-D", "\(folder)/data", "-o", options, "-l", "\(folder)/server.log", "-w", "-t", "60", "start"], as: user)
        } catch {
            let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            return .failure(SetupError(description: "the throwaway PostgreSQL server did not start: \(error)\n\(log)"))
        }
        let stop = "\(binaries)/pg_ctl -D \(folder)/data -m immediate stop > /dev/null 2>&1; rm -rf \(folder)"
        stopCommand.withLock { $0 = user.map { "runuser -u \($0) -- sh -c '\(stop)'" } ?? stop }
        atexit {
            let command = ThrowawayPostgres.stopCommand.withLock { $0 }
            if let command { _ = system(command) }
        }
        return .success(Server(folder: folder, socketFolder: folder, port: 5432, binaries: binaries, user: user))
    }

    /// Stops the servers that test processes killed before their exit handler ran left
    /// behind (their folders name their process, which no longer exists).
    private static func stopServersOfEndedProcesses(binaries: String, user: String?) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
        for name in names where name.hasPrefix("todo-postgres-") {
            let parts = name.split(separator: "-")
            guard parts.count == 4, let pid = Int32(parts[2]), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = "/tmp/\(name)"
            if FileManager.default.fileExists(atPath: "\(folder)/data/postmaster.pid") {
                try? runChecked(["\(binaries)/pg_ctl", "-D", "\(folder)/data", "-m", "immediate", "stop"], as: user)
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The shell command that stops the server and removes its folder, run at exit.
    fileprivate static let stopCommand = TestLock<String?>(nil)

    /// An ordinary user for the server when the tests run as root.
    private static func serverUser() -> String {
        if let chosen = ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_USER"] { return chosen }
        return getpwnam("postgres") != nil ? "postgres" : "nobody"
    }

    /// Runs `arguments` (as `user` through `runuser` when given) and throws its output if it fails.
    ///
    /// Through `system`, which waits for the command alone: Foundation's `Process` waits until
    /// every inheritor of its internal descriptors is gone, and `pg_ctl start` leaves the
    /// server running with them.
    private static func runChecked(_ arguments: [String], as user: String?) throws {
        let command = (user.map { ["runuser", "-u", $0, "--"] } ?? []) + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("todo-postgres-setup-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let line = command.map(shellQuoted).joined(separator: " ") + " < /dev/null > \(shellQuoted(outputPath)) 2>&1"
        let status = system(line)
        guard status == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw SetupError(description: "\(command.joined(separator: " ")) failed (status \(status)): \(text)")
        }
    }

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A value behind a lock, for the little shared state of the test support.
final class TestLock<Value>: @unchecked Sendable {
    // @unchecked: `value` is read and written only inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
