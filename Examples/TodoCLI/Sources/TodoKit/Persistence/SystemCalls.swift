import Foundation

/// The text of the current `errno`, for error messages.
func systemErrorDescription(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

/// Runs a system call, retrying while a signal interrupts it.
func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}

/// The whole contents of the regular file at `path`; the system's reason if it cannot be
/// read. A FIFO or a device is refused rather than read, which could block forever.
func readRegularFile(_ path: String) throws(DataFileProblem) -> Data {
    var info = stat()
    guard stat(path, &info) == 0 else {
        throw .system(operation: "read \(path)", reason: systemErrorDescription())
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        throw .system(operation: "read \(path)", reason: "not a regular file")
    }
    let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else {
        throw .system(operation: "read \(path)", reason: systemErrorDescription())
    }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = retryingOnInterrupt { read(descriptor, &buffer, buffer.count) }
        guard count >= 0 else {
            throw .system(operation: "read \(path)", reason: systemErrorDescription())
        }
        if count == 0 { return data }
        data.append(contentsOf: buffer[..<count])
    }
}

/// Creates an empty file readable by its owner only, unless something is there already.
func createPrivateFile(_ path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    if descriptor >= 0 { close(descriptor) }
}
