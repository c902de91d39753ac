import Foundation

/// How the controller reaches the tracked value.
@usableFromInline
enum RootAccess<Root, Value>: @unchecked Sendable {
    // Key paths, a weak reference and an actor: immutable. The object behind the reference is
    // touched only after `checkIsolation()`.

    /// A value root the caller passes in, or none at all (direct tracking: `\Value.self`).
    case value(WritableKeyPath<Root, Value>)
    /// An object held weakly, read and written by the controller in `isolation`, the actor
    /// the controller was made in (`nil` outside any actor).
    case object(WeakReference, ReferenceWritableKeyPath<Root, Value>, isolation: (any Actor)?)

    @usableFromInline
    var keyPath: WritableKeyPath<Root, Value> {
        switch self {
        case let .value(keyPath): keyPath
        case let .object(_, keyPath, _): keyPath
        }
    }

    /// The root object, if this controller has one and it is still alive. Traps when called
    /// outside the isolation the controller was made in: the object belongs to that actor.
    @usableFromInline
    var object: Root? {
        guard case let .object(reference, _, isolation) = self else { return nil }
        isolation?.preconditionIsolated(
            "A VersioningController with an object root is used outside the actor it was made in; use it where the object lives."
        )
        return reference.object as? Root
    }
}

/// A weak reference, so the controller never keeps its root alive.
@usableFromInline
final class WeakReference: @unchecked Sendable {
    // Written once, in init; reading a weak reference is thread-safe.
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

/// The isolation a controller with an object root belongs to: `isolation`, the `#isolation`
/// of the code that made it, or else the main actor if that code runs there.
///
/// `#isolation` is `nil` in a `lazy var`'s initial value even in a `@MainActor` class, whose
/// lazy property is still first read on the main actor. Without this, the model's controller
/// would touch the model from any thread unchecked.
func rootIsolation(_ isolation: (any Actor)?) -> (any Actor)? {
    if let isolation { return isolation }
    return isOnMainQueue() ? MainActor.shared : nil
}

/// Whether the code running now runs on the main queue (the main actor's executor) or on the
/// main thread, without trapping as `MainActor.preconditionIsolated` would.
///
/// The thread alone is not enough: after `dispatchMain()` (as test runners on Linux call it)
/// the main queue is drained by another thread. So the main queue carries a marker that
/// `DispatchQueue.getSpecific` finds while one of its jobs runs, on whatever thread.
private func isOnMainQueue() -> Bool {
    if Thread.isMainThread { return true }
    _ = mainQueueMarked
    return DispatchQueue.getSpecific(key: mainQueueMarker) != nil
}

private let mainQueueMarker = DispatchSpecificKey<Bool>()

private let mainQueueMarked: Void = DispatchQueue.main.setSpecific(key: mainQueueMarker, value: true)
