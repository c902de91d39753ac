/// The reason a ``Reversion`` could not be applied.
public enum ReversionError: Error, Equatable, Hashable, Sendable {

    /// The value does not hold, at the locations the reversion writes, what the reversion was
    /// made from. Nothing was changed.
    case attemptingToRevertWrongVersion
}

extension ReversionError: CustomStringConvertible {

    public var description: String {
        switch self {
        case .attemptingToRevertWrongVersion:
            "The reversion was made from a different version of the value; nothing was changed."
        }
    }
}
