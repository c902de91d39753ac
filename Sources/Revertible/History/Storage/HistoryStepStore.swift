/// Where a saved history lives, read one step at a time: a database table, a directory of
/// files, a key-value store.
///
/// A history opened over a store (``VersioningController/openHistory(from:)``,
/// `UndoableState(present:store:)`) reads its ``HistoryArchive/Outline`` once, and then only
/// the steps a command crosses: undoing one step reads that step, whatever the history's
/// length. Each step is checked as it is read (its checksum, its place in the tree); a step
/// that fails is refused with a ``HistoryArchiveError`` naming it, and the command that needed
/// it changes nothing. ``HistoryArchive/validate(present:)`` still checks a whole archive on
/// demand.
///
/// What a history changes is written back with ``write(_:)``, a few rows per command: the
/// steps it added or changed, the versions it dropped, and the outline.
///
/// An error a store throws is reported as it describes itself (`String(describing:)`), in a
/// ``HistoryArchiveError`` or ``HistoryError/unreadableStep(_:_:)``: say which step or row
/// and what is wrong with it.
///
/// A store serves one history: once that history has written to it, reopen the store rather
/// than keep using an older copy of the history.
public protocol HistoryStepStore<Value>: AnyObject, Sendable {
    /// The tracked value's type.
    associatedtype Value

    /// The saved outline; `nil` when nothing was saved yet.
    func outline() throws -> HistoryArchive<Value>.Outline?

    /// The saved step that leads to `version`; `nil` when no step of that version is saved.
    func step(leadingTo version: HistoryVersion) throws -> HistoryArchive<Value>.Step?

    /// The versions of the saved steps that start from `parent`, in any order.
    func versions(after parent: HistoryVersion) throws -> [HistoryVersion]

    /// The versions of the saved steps of the scope at `level`, in any order: only what reads
    /// a whole scope asks for it (saving a whole archive, listing every step, ending a scope).
    func versions(inScope level: Int) throws -> [HistoryVersion]

    /// Saves `changes`: writes its steps (replacing any saved step of the same version),
    /// deletes the steps of its removed versions, and replaces the outline. All or nothing.
    func write(_ changes: HistoryArchive<Value>.Changes) throws
}
