import CHeap

/// Heap bytes in use, from glibc's `mallinfo2()` (see `CHeap.h`).
///
/// Only freed memory drops out of the figure, so the difference of two readings is what was
/// allocated in between and is still alive: garbage released in between does not count, and
/// anything kept alive on purpose (an expectation, a copy for checking) must be allocated
/// outside the measured region.
enum HeapMeter {

    /// Whether this platform can measure the heap (glibc); elsewhere memory figures are omitted.
    static var isSupported: Bool {
        cheap_is_supported()
    }

    /// Bytes currently allocated, or `nil` where unsupported.
    static func bytesInUse() -> Int? {
        isSupported ? Int(cheap_heap_in_use()) : nil
    }
}
