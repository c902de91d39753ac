/// A discrete state held as a plain value, usually an `enum`, for state that
/// lives inside a value: a reducer's state, a document, a view model struct.
///
/// ```swift
/// enum Editor: DiscreteState, Codable {
///     case browsing
///     case editing(itemID: Int)
///
///     func canTransition(to next: Editor) -> Bool { … }
/// }
///
/// struct AppState: Hashable, Sendable {
///     var editor = Editor.browsing
/// }
/// ```
///
/// It is `Hashable` and `Sendable`, so a field of this type can be compared,
/// sent between tasks and tracked by undo history like any other value;
/// equality covers the associated values. Add `Codable` to persist it; the
/// compiler synthesizes it for enums whose associated values are `Codable`.
///
/// Unlike `State`, no object owns it and no hook observes it: whoever owns
/// the enclosing value (a store, a view) already sees every change to it.
public protocol DiscreteState: Hashable, Sendable {
    /// Whether `next` may follow this state when changing with
    /// ``transition(to:)``.
    ///
    /// The default allows every change. Because it sees both values, a rule
    /// can look at associated values too, and decide whether a state may
    /// follow itself.
    func canTransition(to next: Self) -> Bool
}

extension DiscreteState {
    public func canTransition(to next: Self) -> Bool { true }

    /// Becomes `next` if ``canTransition(to:)`` allows it.
    ///
    /// Assigning directly stays possible for changes the rules shouldn't
    /// see, such as restoring a saved value.
    ///
    /// - Throws: ``StateError/forbiddenTransition(from:to:)``, leaving the
    ///   value unchanged.
    public mutating func transition(to next: Self) throws(StateError) {
        guard canTransition(to: next) else {
            throw .forbiddenTransition(from: String(describing: self), to: String(describing: next))
        }
        self = next
    }
}
