/// Feeds actions from a running ``Effect`` back into its ``Store``.
///
/// Call it like a function: `send(.loaded(items))`. Like ``Store/send(_:)``, the
/// call waits for any action being reduced on another thread, then reduces this one
/// before returning, so actions sent from one effect are reduced in the order sent.
/// Sending does nothing once the effect is cancelled or the store is gone.
public struct Send<Action: Sendable>: Sendable {
    private let deliver: @Sendable (Action) -> Void

    init(_ deliver: @escaping @Sendable (Action) -> Void) {
        self.deliver = deliver
    }

    /// Sends `action` to the store.
    public func callAsFunction(_ action: Action) {
        guard !Task.isCancelled else { return }
        deliver(action)
    }
}
