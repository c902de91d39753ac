/// Why a state helper refused to read or change the state.
///
/// Whenever a helper throws, the state is exactly as it was before the call.
/// States are named by strings, which keep the error `Sendable` and readable
/// in logs: a `State` by its type's fully qualified name, a `DiscreteState`
/// by its value's description.
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The object has no current state to read.
    case noCurrentState

    /// The current state isn't of the type the call expected; `found` is
    /// `nil` when there is no current state.
    case wrongState(expected: String, found: String?)

    /// The current state's rules don't allow the requested state to follow.
    case forbiddenTransition(from: String, to: String)

    public var description: String {
        switch self {
        case .noCurrentState:
            "There is no current state."
        case .wrongState(let expected, let found?):
            "Expected the state to be \(expected), but it is \(found)."
        case .wrongState(let expected, nil):
            "Expected the state to be \(expected), but there is no current state."
        case .forbiddenTransition(let from, let to):
            "\(from) may not be followed by \(to)."
        }
    }
}

/// The name errors use for a state type.
func name(of type: Any.Type) -> String {
    String(reflecting: type)
}
