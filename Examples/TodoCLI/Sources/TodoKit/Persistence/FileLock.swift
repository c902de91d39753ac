/// An exclusive `flock` on a lock file beside the data file, held across a whole
/// read-modify-write so two `todo` processes never lose each other's updates.
///
/// The lock is on a separate file because the data file itself is replaced by every write:
/// a lock on the old data file would not exclude a process that opened the new one.
/// The lock file is never deleted, since deleting it would let two processes lock two
/// different files of the same name.
final class FileLock {
    private let file: FileDescriptor

    /// Blocks until the lock on `path` is ours.
    init(path: String) throws(DataFileProblem) {
        file = try FileDescriptor.opening(path, flags: O_RDWR | O_CREAT, mode: 0o600)
        guard retryingOnInterrupt({ flock(file.descriptor, LOCK_EX) }) == 0 else {
            throw .system(operation: "lock \(path)", reason: systemErrorDescription())
        }
    }

    /// Releases the lock now; closing the descriptor would release it too.
    func unlock() {
        _ = flock(file.descriptor, LOCK_UN)
    }

    deinit {
        unlock()
    }
}
