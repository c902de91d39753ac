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
