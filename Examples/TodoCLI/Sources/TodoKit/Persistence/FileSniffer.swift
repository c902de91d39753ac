import Foundation

/// What kind of file the data path holds, from its first bytes, before SQLite opens it:
/// SQLite would take any file for a database to create, and write to it.
enum FileSniffer {
    enum Kind: Equatable {
        /// An SQLite database (its header string).
        case sqlite
        /// The first `todo`'s JSON data file, to import.
        case todoVersion1
        /// Anything else.
        case other
    }

    static let sqliteHeader = Array("SQLite format 3\0".utf8)
    static let version1Header = Array(#"{"format":"todo""#.utf8)

    /// The kind of the non-empty regular file at `path`. `naming`, if given, is the file an
    /// error names (another file than the data file the error is reported for).
    static func kind(of path: String, naming: String? = nil) throws(DataFileProblem) -> Kind {
        let operation = naming.map { "read \($0)" } ?? "read it"
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else {
            throw .system(operation: operation, reason: systemErrorDescription())
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = retryingOnInterrupt { read(descriptor, &bytes, bytes.count) }
        guard count >= 0 else {
            throw .system(operation: operation, reason: systemErrorDescription())
        }
        let prefix = bytes.prefix(count)
        if prefix.elementsEqual(sqliteHeader) { return .sqlite }
        if prefix.elementsEqual(version1Header.prefix(count)), count == 16 { return .todoVersion1 }
        return .other
    }
}
