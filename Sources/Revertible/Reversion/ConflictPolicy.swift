/// What undo and redo do at a location that someone else changed since the step was made:
/// another writer (an unrecorded action, an effect, a sync, another person) left there a value
/// other than the one the step left.
///
/// Undo never changes what someone else did unless asked to: the default, ``skip``, reverts
/// every other location of the step and leaves the conflicting ones as the other writer set
/// them. With no other writers there are no conflicts, and every policy behaves the same.
public enum ConflictPolicy: Hashable, Sendable {
    /// Leave the conflicting locations as they are and revert the rest of the step.
    case skip
    /// Change nothing and throw an error that lists the conflicts; the step stays where it is.
    case refuse
    /// Write the step's values over the other writer's, where the location still exists.
    case overwrite
}
