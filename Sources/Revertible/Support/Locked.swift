import Foundation

/// A value that is only ever touched while holding a lock.
///
/// Not `Synchronization.Mutex`: on Linux, `Mutex` locks with futex calls that
/// ThreadSanitizer cannot see, so it reports every access to the guarded value as a race,
/// and the package's concurrency tests must run clean under `--sanitize=thread`. `NSLock`
/// wraps a pthread mutex, which ThreadSanitizer understands.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
    // Sound to share: `value` is only read or written between `lock()` and `unlock()`. What
    // `withLock` hands out is the caller's to confine: every user keeps values that never
    // change once stored (names, key paths, per-type memos of immutable objects) or is itself
    // `Sendable` only when its value is (`VersioningController` requires `Value: Sendable`).
    // Internal only so that clients can inline `withLock`: touched nowhere else.
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    @usableFromInline
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
    @inlinable
    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
