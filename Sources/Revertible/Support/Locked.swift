import Foundation

/// A value that is only ever touched while holding a lock.
///
/// Not `Synchronization.Mutex`: on Linux, `Mutex` locks with futex calls that
/// ThreadSanitizer cannot see, so it reports every access to the guarded value as a race,
/// and the package's concurrency tests must run clean under `--sanitize=thread`. `NSLock`
/// wraps a pthread mutex, which ThreadSanitizer understands.
///
/// Its checked API is `Mutex`'s: the value goes in as `sending`, and ``withLock(_:)`` hands it
/// to `body` as `inout sending` and takes back a `sending` result, so the compiler proves that
/// nothing the lock guards stays reachable from outside it. Two users keep non-`Sendable`
/// values that the compiler cannot prove safe and use ``init(unchecked:)`` and
/// ``withLockUnchecked(_:)``, each with the proof beside it: `VersioningController`'s
/// storage and the cache of key path names.
@usableFromInline
package final class Locked<Value>: @unchecked Sendable {
    // Sound to share: `value` is only read or written between `lock()` and `unlock()`, and
    // through the checked API only `sending` values go in or come out, so no reference into
    // it escapes the lock. The unchecked API leaves that proof to its callers.
    // Touched only by the methods below. Not `@usableFromInline`: clients call
    // `withLockUnchecked` out of line whether these are marked or not (callgrind, session 17).
    let lock = NSLock()
    var value: Value

    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must not take this lock again.
    @usableFromInline
    package func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A lock around `value`, which the caller may still reach: for a value whose sharing the
    /// caller proves (see ``withLockUnchecked(_:)``).
    package init(unchecked value: Value) {
        self.value = value
    }

    // Marked because the controller's inlinable entry points call it.

    /// ``withLock(_:)`` without the compiler's check that values only cross the lock as
    /// `sending`: for a caller that shares non-`Sendable` values on purpose and says at its
    /// declaration why that is sound. `body` must not take this lock again.
    @usableFromInline
    package func withLockUnchecked<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
