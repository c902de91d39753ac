import Foundation

/// The data file's path with every symbolic link resolved, and what is there now.
///
/// `todo` opens the resolved path, so that a file reached through a symlinked directory and
/// through its real path is one file to SQLite, with one lock and one journal beside
/// it; and a link to a file not created yet is followed to its target, never replaced.
struct DataPath {
    /// The path the user gave, for messages.
    let given: String
    /// The absolute path with links resolved; its file may not exist yet.
    let resolved: String

    /// What the resolved path holds.
    enum Status: Equatable {
        case absent
        /// A regular file of `size` bytes; `writable` is false when it has no write
        /// permission bit or this user may not write it.
        case regular(size: Int64, writable: Bool)
        /// Anything else: a directory, a FIFO, a device, a socket.
        case other(kind: String)
    }

    init(_ given: String) throws(DataFileProblem) {
        // A trailing slash names a folder: with nothing there yet, SQLite would create a file
        // named without it, which the same path then fails to reach ("Not a directory").
        let last = (given as NSString).lastPathComponent
        if given.hasSuffix("/") || last == "." || last == ".." {
            throw .notRegularFile(kind: "a folder, as the path ends with \"\(given.hasSuffix("/") ? "/" : last)\"")
        }
        self.given = given
        resolved = try Self.resolve(given)
    }

    /// The status of the resolved path now.
    func status() throws(DataFileProblem) -> Status {
        var info = stat()
        guard stat(resolved, &info) == 0 else {
            if errno == ENOENT { return .absent }
            throw .system(operation: "read it", reason: systemErrorDescription())
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let writable = info.st_mode & 0o222 != 0 && access(resolved, W_OK) == 0
            return .regular(size: Int64(info.st_size), writable: writable)
        case S_IFDIR: return .other(kind: "a directory")
        case S_IFIFO: return .other(kind: "a FIFO")
        case S_IFSOCK: return .other(kind: "a socket")
        case S_IFCHR, S_IFBLK: return .other(kind: "a device")
        default: return .other(kind: "not a file")
        }
    }

    /// The directory the resolved file is in.
    var directory: String {
        (resolved as NSString).deletingLastPathComponent
    }

    /// Creates the file's directory and any missing parents (mode 0700, private, as the XDG
    /// specification asks for directories it creates).
    func createDirectory() throws(DataFileProblem) {
        var missing: [String] = []
        var directory = self.directory
        var info = stat()
        while !directory.isEmpty, directory != "/", stat(directory, &info) != 0 {
            guard errno == ENOENT else {
                throw .system(operation: "create the directory \(directory)", reason: systemErrorDescription())
            }
            missing.append(directory)
            directory = (directory as NSString).deletingLastPathComponent
        }
        if stat(directory, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw .system(operation: "create the directory \(missing.last ?? self.directory)", reason: "\(directory) is not a directory")
        }
        for directory in missing.reversed() {
            guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
                throw .system(operation: "create the directory \(directory)", reason: systemErrorDescription())
            }
        }
    }

    /// `path` made absolute, with the links of its existing part resolved, and a final
    /// component that is a link (possibly to a file not created yet) followed.
    private static func resolve(_ path: String) throws(DataFileProblem) -> String {
        var path = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        for _ in 0..<40 {
            if let real = realPath(path) { return real }
            guard errno == ENOENT else {
                throw .system(operation: "use it", reason: systemErrorDescription())
            }
            // The file does not exist. If the last component is a dangling link, go on with
            // its target; otherwise resolve the directory and keep the name.
            let parent = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            if length > 0 {
                let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                path = target.hasPrefix("/") ? target : parent + "/" + target
                continue
            }
            return (realPath(parent) ?? parent) + "/" + name
        }
        throw .system(operation: "use it", reason: "too many levels of symbolic links")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
