import Foundation
/// Replaces a file so that, whenever the process dies, the path holds either the whole old
/// contents or the whole new ones: write a temporary file in the same directory, flush it,
/// rename it over the old file, then flush the directory so the rename itself is on disk.
enum AtomicWrite {

    /// Replaces the file at `path` with `data`. Call with the data file's lock held.
    ///
    /// The temporary file has a fixed name: writers hold the lock, so there is only ever one,
    /// and one left by a killed process is simply truncated and reused by the next write.
    static func replace(_ path: String, with data: Data) throws(DataFileProblem) {
        // Write through a symbolic link (a data file kept in a dotfiles repository), instead
        // of replacing the link with a plain file.
        let path = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let (directory, name) = split(path)
        let temporary = "\(directory)/.\(name).tmp"
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

    /// The directory and file name of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        let url = URL(fileURLWithPath: path)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }
}
