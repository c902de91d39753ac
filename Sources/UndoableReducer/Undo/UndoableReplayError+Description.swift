import Foundation
import Revertible

extension UndoableReplayError: CustomStringConvertible, LocalizedError {

    /// One sentence saying why the replay was refused.
    public var description: String {
        switch self {
        case .actionTypeMismatch:
            "The history holds actions of another type than the one asked for; no replay was made."
        case let .history(error):
            "The history could not be undone to its oldest version: \(error)"
        case .presentMismatch:
            "Replaying the actions did not arrive at the saved present: the reducer is not deterministic, or the replay was altered."
        }
    }

    public var errorDescription: String? { description }
}
