import Foundation
/// An open file, closed when released.
///
/// The data file is read through one descriptor: a writer replaces the file by renaming a new
/// one over it, so everything read through one descriptor comes from the same version, with
/// no lock needed for reading.
final class FileDescriptor {
    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Opens `path` for reading, or returns `nil` if there is no such file.
    static func openForReading(_ path: String) throws(DataFileProblem) -> FileDescriptor? {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .system(operation: "open it", reason: systemErrorDescription())
        }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// Opens (creating it if needed) `path` with `flags`.
    static func opening(_ path: String, flags: Int32, mode: mode_t = 0o600) throws(DataFileProblem) -> FileDescriptor {
        let descriptor = retryingOnInterrupt { open(path, flags | O_CLOEXEC, mode) }
        guard descriptor >= 0 else {
            throw .system(operation: "open \(path)", reason: systemErrorDescription())
        }
        return FileDescriptor(descriptor: descriptor, path: path)
    }

    /// The file's status (size, mode, type).
    func status() throws(DataFileProblem) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .system(operation: "read it", reason: systemErrorDescription())
        }
        return info
    }

    /// Reads up to `count` bytes at `offset`; fewer only at the end of the file.
    func read(count: Int, at offset: Int) throws(DataFileProblem) -> Data {
        var data = Data(count: count)
        var done = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer in
            while done < count {
                let result = retryingOnInterrupt {
                    pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                }
                if result < 0 { return errno }
                if result == 0 { break }
                done += result
            }
            return nil
        }
        if let failure {
            throw .system(operation: "read it", reason: systemErrorDescription(failure))
        }
        data.count = done
        return data
    }

    /// Writes all of `data`, retrying partial writes.
    func writeAll(_ data: Data) throws(DataFileProblem) {
        let failure: Int32? = data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let result = retryingOnInterrupt {
                    write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                }
                if result < 0 { return errno }
                done += result
            }
            return nil
        }
        if let failure {
            throw .system(operation: "write \(path)", reason: systemErrorDescription(failure))
        }
    }

    /// Flushes the file's data to the disk.
    func synchronize() throws(DataFileProblem) {
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else {
            throw .system(operation: "flush \(path) to disk", reason: systemErrorDescription())
        }
    }
}
