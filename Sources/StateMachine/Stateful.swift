/// An object that is always in one of its discrete states, or in none.
///
/// Conforming takes one stored property:
///
/// ```swift
/// final class MyView: Stateful {
///     var state: Any?
/// }
/// ```
///
/// Then change and read the state through the helpers (`set(_:)`,
/// `transition(to:)`, `update(_:mutation:)`, `currentState(as:)`, …), which
/// only accept states whose `Owner` is this type and report each change to
/// ``stateDidChange(from:to:)``.
///
/// ## Concurrency
///
/// `state` holds `Any`, which isn't `Sendable`, so a stateful object belongs
/// to one isolation domain. The usual one is the main actor; isolate the
/// conformance along with the class:
///
/// ```swift
/// @MainActor final class Screen: @MainActor Stateful { … }
/// ```
///
/// The helpers are synchronous and nonisolated, so they run on the caller's
/// actor and need nothing else. Actor types can't conform, because the
/// helpers must reach `state` synchronously.
public protocol Stateful: AnyObject {
    /// The current state, or `nil` before one is set or after a reset.
    ///
    /// Writing it directly is allowed, but bypasses
    /// transition rules and ``stateDidChange(from:to:)``.
    var state: Any? { get set }

    /// Called after every write the helpers make to `state`, with the state
    /// before and after it.
    ///
    /// The default does nothing. Implement it in the conforming class itself
    /// (not only in a subclass) so the helpers can find it. If your code also
    /// assigns `state` directly and you want to see those writes too, observe
    /// `state` with `didSet` instead: that sees every write, the helpers'
    /// included.
    func stateDidChange(from oldState: Any?, to newState: Any?)
}

extension Stateful {
    public func stateDidChange(from oldState: Any?, to newState: Any?) {}
}
