// fuzz-todo-store: a todo data file or import file made of the bytes, then `list`, `undo`,
// `redo`, run through `TodoApp.run` as the `todo` executable runs them.
//
// The first byte picks what the rest is (its low bit):
// - 0: the data file itself, written to a temporary file and named with `--file`: an SQLite
//   database, or a file of the first `todo` (JSON), which `todo` imports in place;
// - 1: a file for `import --json`, imported into a fresh database of two items.
//
// Every command must give exit 0 or 1 (the arguments are all valid, so never 2), an exit 1
// at least one line on stderr, every line on stderr one line, never a crash or a hang. Then:
// - `list --json` that succeeds prints JSON;
// - a command that fails changes nothing: `list --json` and `history --json` print what
//   they did before it (and still succeed, if they did), and on an SQLite file it, like
//   every `list` and `history`, leaves the file and its journal or log byte for byte as
//   they were (`Files`);
// - a command that succeeds leaves a file that opens: `list --json` and `history --json`
//   succeed after it if they did before. Unless SQLite's `PRAGMA integrity_check` finds the
//   input damaged: todo checks a file with `quick_check` only, which does not compare indexes
//   with their tables, and a write through an index that misses a row misses it too (see
//   Fuzz/README.md, "Found so far"), and unless the history holds a step that does not
//   apply (loading checks only the steps next to the present, so a damaged step further away
//   is found when a move reaches it, and an undo that succeeds can leave the file at a
//   version whose next step is the damaged one; `historyIsSound` moves to every version to
//   tell). Such files must still give clean errors;
// - an `undo` that moved (the history changed), then a `redo` that succeeded, give the list
//   before the undo back; after a successful import, its undo gives the list before it.
//
// The files live in a directory of this process under /dev/shm when there is one (tmpfs:
// SQLite's fsyncs cost nothing there), emptied before each input; the target's own checks of
// the input run on a copy in another (`inspect`).
//
// Seeds: small databases written by the built `todo` (as `0` then the file's bytes), files of
// the first `todo`, and exports (as `1` then `todo export --json`'s output); see
// Fuzz/README.md.
import Foundation
import CSQLite
import Revertible
import TodoKit
import UndoableReducer

func violation(_ message: String) -> Never {
    fatalError(message)
}

let root = "\(FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())/fuzz-todo-store-\(getpid())"
/// Where todo runs: the data file, its journal or log, an import file, and whatever todo
/// leaves beside them (backups of imported files of the first todo).
let directory = "\(root)/run"
/// Where the target's own checks of the input run, on a copy (see `inspect`).
let scratch = "\(root)/check"

let dataPath = "\(directory)/todo.db"
let importPath = "\(directory)/import.json"
let copyPath = "\(scratch)/todo.db"

struct Outcome: Equatable {
    var status: Int32
    var output: String
    var errors: [String]
}

/// Runs `todo --file <data> <arguments>` in this process.
func todo(_ arguments: String...) -> Outcome {
    run(arguments)
}

/// The bytes of the file at `path`, `nil` if there is none. Read with `read(2)`:
/// Foundation's `contents(atPath:)` leaks its buffer for an empty file, which LeakSanitizer
/// reports.
func bytes(atPath path: String) -> Data? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[..<count])
        } else if count == 0 || errno != EINTR {
            if count < 0 { violation("cannot read \(path): \(String(cString: strerror(errno)))") }
            return data
        }
    }
}

/// The data file and the journal or log SQLite keeps beside it, byte for byte (`nil`:
/// absent). Not the `-shm` file, an index of the log that SQLite rebuilds from the log and
/// rewrites on reads, and an empty log counts as none: SQLite makes one when it opens a file
/// in WAL mode and removes it when it closes the file, and it holds nothing.
struct Files: Equatable {
    static let paths = [dataPath, dataPath + "-journal", dataPath + "-wal"]
    var contents: [Data?]

    init() {
        contents = Self.paths.map { path in
            let data = bytes(atPath: path)
            return path.hasSuffix("-wal") && data?.isEmpty == true ? nil : data
        }
    }

    var holdsDatabase: Bool {
        contents[0]?.starts(with: Array("SQLite format 3\0".utf8)) ?? false
    }

    /// Which files differ from `other`, and how, for a violation's message.
    func difference(from other: Files) -> String {
        zip(Self.paths, zip(other.contents, contents)).compactMap { path, pair -> String? in
            let name = (path as NSString).lastPathComponent
            switch pair {
            case (nil, nil): return nil
            case let (nil, after?): return "\(name) appeared (\(after.count) bytes)"
            case (_?, nil): return "\(name) disappeared"
            case let (before?, after?):
                guard before != after else { return nil }
                let first = zip(before, after).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(before.count, after.count)
                return "\(name) changed (\(before.count) -> \(after.count) bytes, first difference at byte \(first))"
            }
        }.joined(separator: "; ")
    }

    /// Writes the files, named `<prefix>todo.db` and so on, into `folder`.
    func write(to folder: String, prefix: String) {
        for (path, data) in zip(Self.paths, contents) {
            guard let data else { continue }
            _ = FileManager.default.createFile(atPath: "\(folder)/\(prefix)\((path as NSString).lastPathComponent)", contents: data)
        }
    }
}

func run(_ arguments: [String]) -> Outcome {
    let filesBefore = Files()
    let console = RecordingConsole()
    let status = TodoApp.run(
        arguments: ["--file", dataPath] + arguments,
        environment: ["HOME": directory, "NO_COLOR": "1", "TODO_LOCK_TIMEOUT": "0"],
        terminal: Terminal(input: false, output: false, error: false),
        console: console,
        readLine: { nil }
    )
    let outcome = Outcome(status: status, output: console.output, errors: console.errors)
    check(outcome, arguments)
    // Byte for byte, not only by what later runs print: a write into a damaged file may
    // change nothing `list` shows, or change only which damage SQLite meets first. A file of
    // the first todo is exempt: any command imports it in place first, and may then fail.
    let filesAfter = Files()
    if filesBefore.holdsDatabase, outcome.status == 1 || ["list", "history"].contains(arguments[0]), filesAfter != filesBefore {
        if let folder = ProcessInfo.processInfo.environment["FUZZ_TODO_STORE_KEEP"] {
            filesBefore.write(to: folder, prefix: "before-")
            filesAfter.write(to: folder, prefix: "after-")
        }
        violation("todo \(arguments) (exit \(outcome.status): \(outcome.errors)) changed the data files: \(filesAfter.difference(from: filesBefore))")
    }
    return outcome
}

func check(_ outcome: Outcome, _ arguments: [String]) {
    guard outcome.status == 0 || outcome.status == 1 else {
        violation("todo \(arguments) exited \(outcome.status): \(outcome.errors)")
    }
    if outcome.status == 1, outcome.errors.isEmpty { violation("todo \(arguments) exited 1 and said nothing") }
    for line in outcome.errors where line.contains(where: \.isNewline) {
        violation("todo \(arguments) wrote a line of several lines: \(line.debugDescription)")
    }
    if outcome.status == 0, arguments.first == "list", arguments.contains("--json"),
       (try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8))) == nil {
        violation("todo \(arguments) printed something that is not JSON: \(outcome.output.prefix(300).debugDescription)")
    }
}

/// `list --json` and `history --json`: what a later run sees.
struct Snapshot: Equatable {
    var list: Outcome
    var history: Outcome
    var opens: Bool { list.status == 0 && history.status == 0 }
}

func snapshot() -> Snapshot {
    Snapshot(list: todo("list", "--json"), history: todo("history", "--json"))
}

/// Runs a command that may change the file and checks what it left.
@discardableResult
func change(_ arguments: String..., from before: Snapshot) -> (Outcome, Snapshot) {
    let outcome = run(arguments)
    let after = snapshot()
    if outcome.status == 1, after != before {
        violation("todo \(arguments) failed (\(outcome.errors)) but changed what list/history show:\nbefore \(before)\nafter \(after)")
    }
    if outcome.status == 0, before.opens, !after.opens, inputIsIntact {
        violation("todo \(arguments) succeeded but the file no longer opens: \(after)")
    }
    return (outcome, after)
}

/// Whether the input passes `PRAGMA integrity_check` and its history is sound, checked on a
/// copy in `scratch`: opened here, even read-only, a file in WAL mode gets a `-wal` and a
/// `-shm` file that a read-only connection cannot remove, and todo's own reading imports a
/// file of the first todo in place; the commands must find the input as it was, with
/// nothing beside it.
func inspect(_ contents: Data) -> Bool {
    empty(scratch)
    defer { empty(scratch) }
    guard FileManager.default.createFile(atPath: copyPath, contents: contents) else { violation("cannot write \(copyPath)") }
    return isIntact(contents, at: copyPath) && historyIsSound(at: copyPath)
}

/// Whether SQLite's full check passes on `contents`, written at `path`. Anything that is not
/// an SQLite database counts as intact: todo refuses it or imports it into a new database.
func isIntact(_ contents: Data, at path: String) -> Bool {
    guard contents.starts(with: Array("SQLite format 3\0".utf8)) else { return true }
    var database: OpaquePointer?
    defer { sqlite3_close(database) }
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return false }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_prepare_v2(database, "PRAGMA integrity_check(1)", -1, &statement, nil) == SQLITE_OK,
          sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
    else { return false }
    return String(cString: text) == "ok"
}

/// Whether every step of the file's history applies: a move from the present to every
/// version, each from a fresh copy of the loaded state, succeeds. `true` when the file does
/// not load (todo refuses it, cleanly: the other checks see to that).
func historyIsSound(at path: String) -> Bool {
    guard let state = try? TodoDataFile(path: path, historyLimit: 1_000_000).readState() else { return true }
    // Only history actions are sent; `Never` would make the closure unreachable (a warning).
    let reducer = Undoable(Reduce<TodoList, Int> { _, _ in .none })
    let tree = state.tree()
    let versions = Set(tree.map(\.version))
    let floors = Set(tree.map(\.parent)).subtracting(versions)
    for version in versions.union(floors).sorted().prefix(100) {
        var copy = state
        _ = reducer.reduce(into: &copy, action: .move(to: .version(version)))
        if copy.error != nil { return false }
    }
    return true
}

/// Whether the input file passes `PRAGMA integrity_check` and its history is sound (see the
/// header).
nonisolated(unsafe) var inputIsIntact = true

func undoAndRedo(from start: Snapshot) {
    let (undo, undone) = change("undo", from: start)
    guard undo.status == 0, start.opens, undone.history != start.history else { return }
    let (redo, redone) = change("redo", from: undone)
    if redo.status == 0, redone.list != start.list {
        violation("undo then redo changed the list:\nbefore \(start.list.output)\nafter \(redone.list.output)")
    }
}

/// Removes everything in `path`, so that no input meets what an earlier one left: backups of
/// imported files pile up beside the data file (`todo.db.v1-backup-N`), and after 100 of them
/// todo refuses every import in place, in a long run only.
func empty(_ path: String) {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
    for entry in entries {
        try? FileManager.default.removeItem(atPath: "\(path)/\(entry)")
    }
}

func reset() {
    empty(directory)
}

func fuzz(_ bytes: [UInt8]) {
    guard let mode = bytes.first else { return }
    let contents = Data(bytes.dropFirst())
    reset()
    defer { reset() }
    if mode & 1 == 0 {
        // The data file itself.
        guard FileManager.default.createFile(atPath: dataPath, contents: contents) else { violation("cannot write \(dataPath)") }
        inputIsIntact = inspect(contents)
        _ = todo("list")
        let start = snapshot()
        undoAndRedo(from: start)
        // And once more from wherever that left it, with a change in between.
        let now = snapshot()
        let (add, added) = change("add", "fuzz", from: now)
        if add.status == 0 { undoAndRedo(from: added) }
    } else {
        // An import file, into a fresh database.
        inputIsIntact = true
        guard FileManager.default.createFile(atPath: importPath, contents: contents) else { violation("cannot write \(importPath)") }
        for title in ["a", "b"] where todo("add", title).status != 0 {
            violation("add \(title) failed on a fresh database")
        }
        let start = snapshot()
        if !start.opens { violation("a fresh database does not open: \(start)") }
        let (imported, after) = change("import", "--json", importPath, from: start)
        guard imported.status == 0 else { return }
        let (undo, undone) = change("undo", from: after)
        if undo.status != 0 || undone.list != start.list {
            violation("the undo of an import did not give the list before it: \(undo.errors)\n\(undone.list.output)")
        }
        let (redo, redone) = change("redo", from: undone)
        if redo.status != 0 || redone.list != after.list {
            violation("the redo of an import did not give the imported list: \(redo.errors)\n\(redone.list.output)")
        }
        _ = todo("list")
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    // A process of the same id that crashed left its folder behind.
    try? FileManager.default.removeItem(atPath: root)
    for folder in [directory, scratch] {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    atexit { try? FileManager.default.removeItem(atPath: root) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzz(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
