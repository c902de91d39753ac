import Foundation
import UndoableReducer

/// The store a command works on: the `undoable` todo reducer over the file's state.
public typealias TodoStore = Store<UndoableState<TodoList>, UndoableAction<TodoAction>>

/// The data file: quick reads of the list, full reads of the history, and locked
/// read-modify-write cycles that run a command through a ``TodoStore``.
///
/// Reads need no lock: writers replace the file atomically, and a read goes through one open
/// descriptor, so it sees one whole version. Writes hold the lock from before reading until
/// after the new file is on disk, so concurrent writers queue up instead of overwriting each
/// other's changes.
public final class TodoDataFile {
    /// Where the file is (it may not exist yet).
    public let path: String
    /// The most undo steps kept; older ones are dropped on the next write.
    public let historyLimit: Int
    let reducer: Undoable<TodoReducer>

    /// The header line and state this process last read or wrote. While the file still
    /// starts with that header (it names both sections' lengths and checksums), the state is
    /// reused, so a script of many commands does not re-read and replay the file each time.
    private var cache: (header: Data, state: UndoableState<TodoList>)?

    public init(path: String, historyLimit: Int) {
        self.path = path
        self.historyLimit = historyLimit
        reducer = TodoReducer.withUndo(historyLimit: historyLimit)
    }

    /// The list only, reading the header and the list section and nothing of the history;
    /// an empty list if the file does not exist yet.
    public func readList() throws(TodoError) -> TodoList {
        try withProblemsReported { () throws(DataFileProblem) in
            guard let file = try FileDescriptor.openForReading(path) else { return TodoList() }
            let (header, headerLength, _) = try readHeader(of: file)
            // The list section and the newline after it.
            let section = try file.read(count: header.present.bytes + 1, at: headerLength)
            let payload = section.prefix(header.present.bytes)
            guard section.count == header.present.bytes + 1, section.last == 0x0A else {
                throw .checksumMismatch(section: "list")
            }
            try header.present.verify(payload, name: "list")
            return try DataFileContents.decodePresent(payload)
        }
    }

    /// The list with its history; an empty one if the file does not exist yet.
    public func readState() throws(TodoError) -> UndoableState<TodoList> {
        try withProblemsReported { () throws(DataFileProblem) in
            guard let file = try FileDescriptor.openForReading(path) else { return UndoableState(TodoList()) }
            return try load(file).state
        }
    }

    /// Runs `change` on a store holding the file's current state, with the file locked, and
    /// writes the result if it differs from what was read. If `change` throws, nothing is
    /// written.
    ///
    /// The write is on disk (file and directory flushed) before this returns, so a
    /// confirmation printed afterwards is never a lie.
    public func modify<Result>(
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result {
        let (directory, _) = AtomicWrite.split(path)
        do {
            // Private, as the XDG spec asks for directories it creates.
            try FileManager.default.createDirectory(
                atPath: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .dataFile(path, .system(operation: "create its directory", reason: String(describing: error)))
        }
        let lock: FileLock
        do {
            lock = try FileLock(path: path + ".lock")
        } catch {
            throw .dataFile(path, error)
        }
        defer { lock.unlock() }

        let (before, header): (UndoableState<TodoList>, Data) = try withProblemsReported { () throws(DataFileProblem) in
            guard let file = try FileDescriptor.openForReading(path) else {
                // No file yet: compare with an empty one, so a command that changes nothing
                // ("undo" on a fresh list) does not create it.
                let empty = UndoableState(TodoList())
                return (empty, Self.headerLine(of: try DataFileContents.encode(empty)))
            }
            let loaded = try load(file)
            return (loaded.state, loaded.header)
        }
        let store = TodoStore(initialState: before, reducer: reducer)
        let result = try change(store)
        let after = store.state
        try withProblemsReported { () throws(DataFileProblem) in
            let bytes = try DataFileContents.encode(after)
            let newHeader = Self.headerLine(of: bytes)
            // Same header, same lengths and checksums: nothing changed, so leave the file be.
            guard newHeader != header else { return }
            cache = nil
            try AtomicWrite.replace(path, with: bytes)
            cache = (newHeader, after)
        }
        return result
    }

    /// The first line of a file's bytes, without its newline.
    private static func headerLine(of bytes: Data) -> Data {
        Data(bytes.prefix(while: { $0 != 0x0A }))
    }

    /// Reads and checks the header at the start of `file`.
    private func readHeader(of file: FileDescriptor) throws(DataFileProblem) -> (DataFileFormat.Header, length: Int, line: Data) {
        let size = Int(try file.status().st_size)
        guard size > 0 else { throw .empty }
        let prefix = try file.read(count: min(size, DataFileFormat.maximumHeaderLength), at: 0)
        let length = try DataFileFormat.headerLength(in: prefix)
        let line = prefix.prefix(length - 1)
        let header = try DataFileFormat.header(from: line)
        let expected = header.fileLength(headerLength: length)
        guard expected == size else { throw .wrongLength(expected: expected, actual: size) }
        return (header, length, Data(line))
    }

    /// The whole state in `file`, every section checked, reusing the cache when the header
    /// says the file is the one this process last saw.
    private func load(_ file: FileDescriptor) throws(DataFileProblem) -> (state: UndoableState<TodoList>, header: Data) {
        let (header, headerLength, line) = try readHeader(of: file)
        if let cache, cache.header == line {
            return (cache.state, line)
        }
        let body = try file.read(count: header.fileLength(headerLength: headerLength) - headerLength, at: headerLength)
        let presentEnd = header.present.bytes
        let historyEnd = presentEnd + 1 + header.history.bytes
        guard body.count == historyEnd + 1 else {
            throw .wrongLength(expected: header.fileLength(headerLength: headerLength), actual: headerLength + body.count)
        }
        let present = body[body.startIndex ..< body.startIndex + presentEnd]
        let history = body[body.startIndex + presentEnd + 1 ..< body.startIndex + historyEnd]
        guard body[body.startIndex + presentEnd] == 0x0A else { throw .checksumMismatch(section: "list") }
        guard body[body.startIndex + historyEnd] == 0x0A else { throw .checksumMismatch(section: "history") }
        try header.present.verify(present, name: "list")
        try header.history.verify(history, name: "history")
        let list = try DataFileContents.decodePresent(present)
        let state = try DataFileContents.decodeHistory(history, present: list, reducer: reducer)
        cache = (line, state)
        return (state, line)
    }

    /// Runs `body`, turning a data file problem into an error that names the file.
    private func withProblemsReported<T>(_ body: () throws(DataFileProblem) -> T) throws(TodoError) -> T {
        do {
            return try body()
        } catch {
            throw .dataFile(path, error)
        }
    }
}
