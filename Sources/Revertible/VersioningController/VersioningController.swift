import Observation

/// Keeps the undo and redo history of a value and moves it back and forth.
///
/// Three ways to track:
/// - **Direct**: `VersioningController(value)`; you ``append(_:)`` each new version and get
///   versions back from ``undo(to:)`` and ``redo(to:)`` (or pass yours with
///   ``undo(_:to:)``).
/// - **Key path on a value**: `VersioningController(on: root, at: \.property)`, with
///   ``append(root:)``, ``undo(root:to:)`` and ``redo(root:to:)``.
/// - **Key path on an object**: `VersioningController(on: model, at: \.property)` holds `model`
///   weakly and reads and writes the property itself: ``appendCurrentVersion()``,
///   ``undo(to:)``, ``redo(to:)``. `VersioningController(observing: model, at: \.property)`
///   does the same for an `@Observable` model and records every change on its own.
///
/// Every interface works in every mode. Undo and redo never leave the current scope
/// (``pushNewScope()``), go as far as a ``HistoryDestination`` says (a number of steps or a tag),
/// and a transaction (``setWithTransaction(_:)-2pgjd``) or a debounced burst of changes is one step.
///
/// `Failure` is ``HistoryError`` (the functions throw) unless the controller stores errors
/// instead (an error key path, or `@Versioned`), which makes it `Never`. Either way the last
/// refusal is in ``error`` until a command succeeds.
///
/// ## Memory and speed
/// The controller keeps one reference version and, per step, only what changed. ``undo(_:to:)``
/// and ``redo(_:to:)`` release the reference while they write, so a value whose storage is
/// otherwise unshared is mutated in place: they cost the size of the change.
///
/// ## Concurrency
/// The controller is `Sendable` when `Root` and `Value` are, and every operation is atomic.
/// A controller with an object root reads and writes the object on the caller's thread: made
/// in an actor's isolation (the main actor, for UI models), it must be used there, and traps
/// with a clear message when used from elsewhere instead of racing with the object's owner.
///
/// ## Observation
/// The controller is `Observable`: ``hasUndo``, ``hasRedo``, ``scopeLevel``, ``error`` and the
/// other state it reports notify observers when they change.
public final class VersioningController<Root, Value: Revertible, Failure: Error> {

    @usableFromInline let storage: Locked<Storage>
    @usableFromInline let root: RootAccess<Root, Value>
    @usableFromInline let reportError: (Root?, HistoryError) throws(Failure) -> Void
    @usableFromInline let registrar = ObservationRegistrar()
    /// `\.observedState`, made once: a key path literal into a generic class is instantiated
    /// by `swift_getKeyPath` on every evaluation, a cost paid on every operation otherwise.
    @usableFromInline let observedStateKeyPath: KeyPath<VersioningController, Void> = \.observedState

    /// Guarded by the controller's lock, with ``Locked``'s unchecked API: the lock is taken in
    /// code generic over any `Value`, where the compiler cannot prove the storage `Sendable`.
    /// Sound because the storage crosses threads only when the controller does, and the
    /// controller is `Sendable` only where `Root` and `Value` are, which makes everything the
    /// storage holds `Sendable` (the history of `Value`s, the `Sendable` policy, plain flags).
    @usableFromInline
    struct Storage {
        @usableFromInline var history: History<Value, NoAnnotation>
        @usableFromInline var policy: HistoryPolicy
        /// An observed root announced a change that has not been recorded yet, made at this time.
        @usableFromInline var pendingChange: Duration?
        /// The controller is writing the root; its observation must not record that.
        var isWritingRoot = false
        /// Depth of `rootWillChange` on the stack: a flush from inside it must keep the change
        /// that is in flight pending.
        @usableFromInline
        var willChangeDepth = 0
    }

    init(
        value: Value,
        root: RootAccess<Root, Value>,
        policy: HistoryPolicy,
        reportError: @escaping (Root?, HistoryError) throws(Failure) -> Void
    ) {
        storage = Locked(unchecked: Storage(history: History(value), policy: policy))
        self.root = root
        self.reportError = reportError
    }

    /// The history as it is now: counts, tags, steps, the tree. The controller answers each
    /// of its questions directly too (``hasUndo``, ``tags()``, ...; see ``HistoryReading``).
    public var history: HistoryView<Value> { read { HistoryView($0.history) } }

    /// The current version: the last one appended, undone to or redone to.
    @inlinable
    public var currentVersion: Value { read { $0.history.current } }

    /// The largest number of steps kept in the current scope, counting every branch, or `nil`
    /// for no limit (the default). Lowering it trims at once.
    ///
    /// Past the limit, steps are dropped one at a time until it fits: first the oldest
    /// version off the path from the oldest kept version to the present that no other version
    /// follows (abandoned branches go first, leaf by leaf); then the oldest step on that path,
    /// like `UndoManager.levelsOfUndo` (its version becomes the oldest one undo reaches). Tags
    /// of dropped versions are forgotten.
    ///
    /// A scope never costs anything older than its own start: while a scope is open, the
    /// limit trims only within it, and the steps before it are kept as they were until it
    /// ends; when it is popped or abandoned, the limit applies again to the scope below. A
    /// scope that made more steps than the limit keeps its newest `historyLimit` steps for
    /// undo; its older ones are folded into one change back to where it started, so popping
    /// it still squashes everything it did and abandoning it still goes back to its start.
    public var historyLimit: Int? {
        get { read { $0.policy.limit } }
        set {
            change {
                $0.policy.limit = newValue
                $0.history.endGroup()
                $0.history.trim(to: newValue)
            }
        }
    }

    /// Forgets every step, tag and scope; the current version stays.
    public func removeAllVersions() {
        _ = try? perform(.removeAllVersions)
    }
}

extension VersioningController: Observable {}

extension VersioningController: HistoryReading {}

/// Sound when `Root` and `Value` are: the history is guarded by a lock, and an object root is
/// only touched in the isolation the controller was made in (see ``RootAccess``).
extension VersioningController: @unchecked Sendable where Root: Sendable, Value: Sendable {}

/// Checked by the compiler: the proof that ``storage`` may use ``Locked``'s unchecked API.
extension VersioningController.Storage: Sendable where Value: Sendable {}

/// The common controller: one value, tracked directly, errors thrown.
public typealias ValueVersioningController<Value: Revertible> = VersioningController<Value, Value, HistoryError>
