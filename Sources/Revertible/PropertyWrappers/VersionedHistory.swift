/// The versioning interface of a ``Versioned`` or ``ThrowingVersioned`` property, reached as
/// `$property`.
///
/// With `Failure == Never` (``Versioned``), failures are stored in ``error`` instead of thrown.
public struct VersionedHistory<Value: Revertible, Failure: Error>: Sendable where Value: Sendable {

    let controller: VersioningController<Value, Value, ReversionError>
    let report: @Sendable (ReversionError) throws(Failure) -> Void

    init(controller: VersioningController<Value, Value, ReversionError>, report: @escaping @Sendable (ReversionError) throws(Failure) -> Void) {
        self.controller = controller
        self.report = report
    }

    private func run(_ operation: () throws(ReversionError) -> Void) throws(Failure) {
        do {
            try operation()
        } catch {
            try report(error)
        }
    }

    /// Whether there is a change to undo in the current scope.
    public var hasUndo: Bool { controller.hasUndo }
    /// Whether there is a change to redo in the current scope.
    public var hasRedo: Bool { controller.hasRedo }
    /// How many changes can be undone in the current scope.
    public var undoCount: Int { controller.undoCount }
    /// How many changes can be redone in the current scope.
    public var redoCount: Int { controller.redoCount }
    /// The current scope, `0` for the outermost.
    public var scopeLevel: Int { controller.scopeLevel }
    /// The error of the last operation that failed, or `nil` once one succeeds.
    public var error: ReversionError? { controller.error }

    /// Undoes the newest change of the current scope; does nothing when there is none.
    public func undo() throws(Failure) { try run { () throws(ReversionError) in try controller.undo() } }
    /// Redoes the next change of the current scope; does nothing when there is none.
    public func redo() throws(Failure) { try run { () throws(ReversionError) in try controller.redo() } }
    /// Undoes to the version tagged `tag` in the current scope; an unknown tag changes nothing.
    public func undo(to tag: some Hashable & Sendable) throws(Failure) { try run { () throws(ReversionError) in try controller.undo(to: tag) } }
    /// Redoes up to the version tagged `tag` in the current scope; an unknown tag changes nothing.
    public func redo(to tag: some Hashable & Sendable) throws(Failure) { try run { () throws(ReversionError) in try controller.redo(to: tag) } }

    /// Names the current version `tag`.
    public func tag(_ tag: some Hashable & Sendable) { controller.tagCurrentVersion(tag) }
    /// The tags of a scope's versions (by default the current scope's), `nil` where untagged.
    public func tags(inScopeLevel level: Int? = nil) -> (undo: [AnyHashable?], redo: [AnyHashable?]) {
        controller.tags(inScopeLevel: level)
    }

    /// Starts a new scope.
    public func pushNewScope() { controller.pushNewScope() }
    /// Ends the current scope, squashing its changes into one step on the scope below.
    public func popCurrentScope() throws(Failure) { try run { () throws(ReversionError) in try controller.popCurrentScope() } }
    /// Undoes every change of the current scope, staying in it.
    public func undoCurrentScope() throws(Failure) { try run { () throws(ReversionError) in try controller.undoCurrentScope() } }
    /// Redoes every change of the current scope.
    public func redoCurrentScope() throws(Failure) { try run { () throws(ReversionError) in try controller.redoCurrentScope() } }
    /// Abandons the current scope: undoes its changes and removes it.
    public func undoAndPopCurrentScope() throws(Failure) { try run { () throws(ReversionError) in try controller.undoAndPopCurrentScope() } }

    /// Changes the property with `body`, recorded as one step.
    public func setWithTransaction<E: Error>(_ body: (inout Value) throws(E) -> Void) throws(E) {
        try controller.setWithTransaction(body)
    }

    /// Changes the property with an asynchronous `body`, recorded as one step.
    public func setWithTransaction<E: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (inout Value) async throws(E) -> Void
    ) async throws(E) {
        try await controller.setWithTransaction(body)
    }

    /// Sets the property without recording a step.
    public func setWithoutTracking(_ value: Value) { controller.setWithoutTracking(value) }

    /// Forgets the whole history; the value stays.
    public func reset() { controller.removeAllVersions() }

    /// Groups changes made less than `interval` apart (measured by `clock`) into one step.
    public func withDebouncing(clock: any Clock<Duration> = ContinuousClock(), interval: Duration) {
        controller.withDebouncing(clock: clock, interval: interval)
    }
}
