import Observation

/// Keeps the undo and redo history of a value and moves it back and forth.
///
/// Three ways to track, as in the seed API:
/// - **Direct**: `VersioningController(value)`; you ``append(_:)`` each new version and get
///   versions back from ``undo()`` and ``redo()`` (or pass yours with ``undo(_:)``).
/// - **Key path on a value**: `VersioningController(on: root, at: \.property)`, with
///   ``append(root:)``, ``undo(root:)`` and ``redo(root:)``.
/// - **Key path on an object**: `VersioningController(on: model, at: \.property)` holds `model`
///   weakly and reads and writes the property itself: ``appendCurrentVersion()``, ``undo()``,
///   ``redo()``. `VersioningController(observing: model, at: \.property)` does the same for an
///   `@Observable` model and records every change on its own.
///
/// Every interface works in every mode. Undo and redo never leave the current scope
/// (``pushNewScope()``), can jump to tagged versions (``undo(to:)``), and a transaction
/// (``setWithTransaction(_:)``) or a debounced burst of changes is one step.
///
/// `Failure` is ``ReversionError`` (the functions throw) unless the controller was given a key
/// path to store errors in, which makes it `Never`. Undo with nothing to undo does nothing.
///
/// ## Memory and speed
/// The controller keeps one reference version and, per step, only what changed. ``undo(_:)``
/// and ``redo(_:)`` release the reference while they write, so a value whose storage is
/// otherwise unshared is mutated in place: they cost the size of the change. ``undo()`` on a
/// direct controller writes into the controller's own copy, which is shared with yours if you
/// kept one, so prefer the `inout` forms for large values.
///
/// ## Concurrency
/// The controller is `Sendable` and can be used from many tasks at once: every operation is
/// atomic. A root object is read and written on the caller's thread, so use an object root from
/// one isolation domain (usually the main actor), as you use the object itself.
///
/// ## Observation
/// The controller is `Observable`: ``hasUndo``, ``hasRedo``, ``scopeLevel``, ``error`` and the
/// other state it reports notify observers when they change.
public final class VersioningController<Root, Value: Revertible, Failure: Error>: @unchecked Sendable {
    // Sendable by construction: mutable state lives in `storage`; `root` is only read and
    // written by callers in the root's own isolation domain (see "Concurrency" above).

    let storage: Locked<Storage>
    let root: RootAccess<Root, Value>
    let reportError: (Root?, ReversionError) throws(Failure) -> Void
    let registrar = ObservationRegistrar()
    /// `\.observedState`, made once: a key path literal into a generic class is instantiated
    /// by `swift_getKeyPath` on every evaluation, which cost a third of an undo.
    let observedStateKeyPath: KeyPath<VersioningController, Void> = \.observedState

    struct Storage: @unchecked Sendable {
        var history: History<Value, NoAnnotation>
        var debounce: Debounce?
        /// When the last change was recorded, for debouncing.
        var lastChange: Duration?
        var error: ReversionError?
        /// An observed root announced a change that has not been recorded yet, made at this time.
        var pendingChange: Duration?
        /// The controller is writing the root; its observation must not record that.
        var isWritingRoot = false
        /// Depth of `rootWillChange` on the stack: a flush from inside it must keep the change
        /// that is in flight pending.
        var willChangeDepth = 0
    }

    init(
        value: Value,
        root: RootAccess<Root, Value>,
        historyLimit: Int?,
        debounce: Debounce?,
        reportError: @escaping (Root?, ReversionError) throws(Failure) -> Void
    ) {
        storage = Locked(Storage(history: History(value, limit: historyLimit), debounce: debounce))
        self.root = root
        self.reportError = reportError
    }

    /// Whether there is a step to undo in the current scope.
    public var hasUndo: Bool { read { $0.history.canUndo } }

    /// Whether there is a step to redo in the current scope.
    public var hasRedo: Bool { read { $0.history.canRedo } }

    /// How many steps can be undone in the current scope.
    public var undoCount: Int { read { $0.history.undoCount } }

    /// How many steps can be redone in the current scope.
    public var redoCount: Int { read { $0.history.redoCount } }

    /// The current scope, `0` for the outermost.
    public var scopeLevel: Int { read { $0.history.scopeLevel } }

    /// The error of the last operation that failed, or `nil` once one succeeds.
    public var error: ReversionError? { read { $0.error } }

    /// The current version: the last one appended, undone to or redone to.
    public var currentVersion: Value { read { $0.history.current } }

    /// The largest number of undo steps kept, across all scopes, or `nil` for no limit (the
    /// default). When a new step goes past it, the oldest steps are dropped first, like
    /// `UndoManager.levelsOfUndo`.
    public var historyLimit: Int? {
        get { read { $0.history.limit } }
        set { change { $0.history.limit = newValue } }
    }

    /// Forgets every step, tag and scope; the current version stays.
    public func removeAllVersions() {
        change { $0.history.removeAll() }
    }
}

extension VersioningController: Observable {}

/// How the controller reaches the tracked value.
enum RootAccess<Root, Value>: @unchecked Sendable {
    // Key paths and a weak reference: immutable; see `VersioningController`'s concurrency note.

    /// A value root the caller passes in, or none at all (direct tracking: `\Value.self`).
    case value(WritableKeyPath<Root, Value>)
    /// An object held weakly, read and written by the controller.
    case object(WeakReference, ReferenceWritableKeyPath<Root, Value>)

    var keyPath: WritableKeyPath<Root, Value> {
        switch self {
        case let .value(keyPath): keyPath
        case let .object(_, keyPath): keyPath
        }
    }

    /// The root object, if this controller has one and it is still alive.
    var object: Root? {
        guard case let .object(reference, _) = self else { return nil }
        return reference.object as? Root
    }
}

/// A weak reference, so the controller never keeps its root alive.
final class WeakReference: @unchecked Sendable {
    // Written once, in init; reading a weak reference is thread-safe.
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}
