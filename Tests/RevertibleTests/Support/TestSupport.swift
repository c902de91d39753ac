// Every file of this target sees the shared test support (seeded generator, reference model,
// manual clock) without importing it.
@_exported import TestSupport
import Revertible

extension ReversionError {

    /// Whether this is a refusal because another writer changed a location a step wrote
    /// (``ConflictPolicy/refuse``).
    var isConflict: Bool {
        if case .conflict = self { return true }
        return false
    }
}

extension HistoryError {

    /// Whether a step of the move refused because another writer changed a location it wrote.
    var isConflict: Bool {
        reversionError?.isConflict == true
    }
}
