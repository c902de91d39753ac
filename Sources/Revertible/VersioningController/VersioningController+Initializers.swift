extension VersioningController where Root == Value, Failure == ReversionError {

    /// Tracks `value` directly: append each new version, undo and redo hand versions back.
    ///
    /// ```swift
    /// let controller = VersioningController(activity)
    /// activity.title = "New title"
    /// controller.append(activity)
    /// try controller.undo(&activity)
    /// ```
    ///
    /// - Parameters:
    ///   - historyLimit: The most undo steps to keep, or `nil` for no limit.
    ///   - debounceInterval: Versions appended less than this apart become one step.
    ///   - clock: The clock that measures `debounceInterval`.
    public convenience init(
        _ value: Value,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            value: value,
            root: .value(\Value.self),
            historyLimit: historyLimit,
            debounce: Debounce(interval: debounceInterval, clock: clock),
            reportError: { (_, error) throws(ReversionError) in throw error }
        )
    }
}

extension VersioningController where Failure == ReversionError {

    /// Tracks the value at `keyPath` of `root`, a value you keep: ``append(root:)``,
    /// ``undo(root:)`` and ``redo(root:)`` take the whole root, and only the property at
    /// `keyPath` is compared and written.
    public convenience init(
        on root: Root,
        at keyPath: WritableKeyPath<Root, Value>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            value: root[keyPath: keyPath],
            root: .value(keyPath),
            historyLimit: historyLimit,
            debounce: Debounce(interval: debounceInterval, clock: clock),
            reportError: { (_, error) throws(ReversionError) in throw error }
        )
    }
}

extension VersioningController where Root: AnyObject, Failure == ReversionError {

    /// Tracks the property at `keyPath` of `root`, an object held weakly: the controller reads
    /// it in ``appendCurrentVersion()`` and writes it in ``undo()`` and ``redo()``. Once `root`
    /// is deallocated, the controller does nothing.
    public convenience init(
        on root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            value: root[keyPath: keyPath],
            root: .object(WeakReference(root), keyPath),
            historyLimit: historyLimit,
            debounce: Debounce(interval: debounceInterval, clock: clock),
            reportError: { (_, error) throws(ReversionError) in throw error }
        )
    }
}

extension VersioningController where Root: AnyObject, Failure == Never {

    /// Tracks the property at `keyPath` of `root`, an object held weakly, and writes any error
    /// to its property at `errorKeyPath` instead of throwing.
    public convenience init(
        on root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        errorKeyPath: ReferenceWritableKeyPath<Root, (any Error)?>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            value: root[keyPath: keyPath],
            root: .object(WeakReference(root), keyPath),
            historyLimit: historyLimit,
            debounce: Debounce(interval: debounceInterval, clock: clock),
            reportError: { root, error in root?[keyPath: errorKeyPath] = error }
        )
    }
}
