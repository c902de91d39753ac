import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file so that, whenever the process dies, the path holds either the whole old
/// contents or the whole new ones: write a temporary file in the same directory, flush it,
/// rename it over the old file, then flush the directory so the rename itself is on disk.
enum AtomicWrite {

    /// Replaces the file at `path` with `data`. Call with the data file's lock held.
    static func replace(_ path: String, with data: Data) throws(DataFileProblem) {
        let (directory, name) = split(path)
        removeLeftovers(in: directory, of: name)
        let temporary = "\(directory)/\(temporaryPrefix(for: name))\(getpid())"
        // Keep the permissions the user gave the file; new files are private.
        var mode: mode_t = 0o600
        var info = stat()
        if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        do {
            let file = try FileDescriptor.opening(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
            _ = fchmod(file.descriptor, mode)
            try file.writeAll(data)
            try file.synchronize()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = systemErrorDescription()
            unlink(temporary)
            throw .system(operation: "replace \(path)", reason: reason)
        }
        // Without this, a crash could bring back the old directory entry, losing the write.
        // A file system that cannot flush directories reports an error; the rename has
        // happened by then, so the write stands.
        if let directoryFile = try? FileDescriptor.opening(directory, flags: O_RDONLY | O_DIRECTORY) {
            _ = retryingOnInterrupt { fsync(directoryFile.descriptor) }
        }
    }

    /// The hidden prefix of temporary files for the data file `name`.
    static func temporaryPrefix(for name: String) -> String {
        ".\(name).tmp-"
    }

    /// Deletes temporary files left by `todo` processes killed mid-write. Safe because the
    /// caller holds the lock, so no other process is writing one now.
    private static func removeLeftovers(in directory: String, of name: String) {
        let prefix = temporaryPrefix(for: name)
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            unlink("\(directory)/\(entry)")
        }
    }

    /// The directory and file name of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        let url = URL(fileURLWithPath: path)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }
}
