import Revertible

/// Keeps a ``Store/subscribe(_:)`` callback registered for as long as it is alive.
///
/// Store it; releasing it or calling ``cancel()`` stops the notifications, so a
/// subscription can never outlive the object that owns it.
public final class StoreSubscription: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = Locked(onCancel)
    }

    deinit {
        cancel()
    }

    /// Stops the notifications. A notification already being delivered on another
    /// thread may still arrive. Calling it again does nothing.
    public func cancel() {
        let onCancel = onCancel.withLock { onCancel in
            defer { onCancel = nil }
            return onCancel
        }
        onCancel?()
    }
}
