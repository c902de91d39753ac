extension VersioningController where Root == Value, Failure == HistoryError {

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
    ///   - value: The first version: undo goes no further back.
    ///   - historyLimit: The most undo steps to keep, or `nil` for no limit.
    ///   - debounceInterval: Versions appended less than this apart become one step.
    ///   - clock: The clock that measures `debounceInterval` and times each step.
    public convenience init(
        _ value: Value,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            value: value, root: .value(\Value.self),
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock, reportError: Self.throwing
        )
    }
}

extension VersioningController where Failure == HistoryError {

    /// Tracks the value at `keyPath` of `root`, a value you keep: ``append(root:)``,
    /// ``undo(root:to:)`` and ``redo(root:to:)`` take the whole root, and only the property
    /// at `keyPath` is compared and written.
    ///
    /// For an object root, the initializer that reads and writes the object itself is chosen.
    @_disfavoredOverload
    public convenience init(
        on root: Root,
        at keyPath: WritableKeyPath<Root, Value>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        self.init(
            value: root[keyPath: keyPath], root: .value(keyPath),
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock, reportError: Self.throwing
        )
    }
}

extension VersioningController {

    /// The one path of every public initializer, which differ only in the root they track
    /// and how errors reach the caller (the observing ones then start observing the root).
    /// Conflicts are skipped, as the seed's controller did.
    convenience init(
        value: Value,
        root: RootAccess<Root, Value>,
        historyLimit: Int?,
        debounceInterval: Duration?,
        clock: some Clock<Duration>,
        reportError: @escaping (Root?, HistoryError) throws(Failure) -> Void
    ) {
        let policy = HistoryPolicy(limit: historyLimit, debounceInterval: debounceInterval, clock: clock, conflictPolicy: .skip)
        self.init(value: value, root: root, policy: policy, reportError: reportError)
    }
}

extension VersioningController where Failure == HistoryError {

    /// Errors thrown to the caller, for the initializers that make a throwing controller.
    static var throwing: (Root?, HistoryError) throws(HistoryError) -> Void {
        { (_, error) throws(HistoryError) in throw error }
    }
}

extension VersioningController where Root: AnyObject {

    /// Tracks the property at `keyPath` of `root`, an object held weakly, in the isolation
    /// the controller is made in (see `rootIsolation(_:)`): the object front doors' path.
    convenience init(
        object root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        isolation: (any Actor)?,
        historyLimit: Int?,
        debounceInterval: Duration?,
        clock: some Clock<Duration>,
        reportError: @escaping (Root?, HistoryError) throws(Failure) -> Void
    ) {
        self.init(
            value: root[keyPath: keyPath],
            root: .object(WeakReference(root), keyPath, isolation: rootIsolation(isolation)),
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock,
            reportError: reportError
        )
    }
}

extension VersioningController where Root: AnyObject, Failure == HistoryError {

    /// Tracks the property at `keyPath` of `root`, an object held weakly: the controller reads
    /// it in ``appendCurrentVersion()`` and writes it in ``undo(to:)`` and ``redo(to:)``. Once
    /// `root` is deallocated, the controller does nothing.
    ///
    /// Made in an actor's isolation (a `@MainActor` model's), the controller must be used
    /// there too: it touches `root` only in that isolation, and traps when used elsewhere.
    /// Made on the main actor without its isolation (a `lazy var` of a model), it belongs
    /// to the main actor. For a `lazy var` of a model isolated to another global actor, pass
    /// that actor as `isolation`.
    public convenience init(
        on root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            object: root, at: keyPath, isolation: isolation,
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock,
            reportError: Self.throwing
        )
    }
}

extension VersioningController where Root: AnyObject, Failure == Never {

    // The initializer below repeats `init(on:at:...)`'s parameters, adding `errorKeyPath`,
    // because a public initializer's labels and defaults cannot be shared; both bodies are the
    // one `init(object:at:...)`, which differs only in how errors are reported.

    /// Errors written to `root`'s property at `errorKeyPath`, for the initializers that make
    /// a controller that stores its errors.
    static func writing(
        to errorKeyPath: ReferenceWritableKeyPath<Root, (any Error)?>
    ) -> (Root?, HistoryError) -> Void {
        { root, error in root?[keyPath: errorKeyPath] = error }
    }

    /// Tracks the property at `keyPath` of `root`, an object held weakly, and writes any error
    /// to its property at `errorKeyPath` instead of throwing.
    public convenience init(
        on root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        errorKeyPath: ReferenceWritableKeyPath<Root, (any Error)?>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            object: root, at: keyPath, isolation: isolation,
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock,
            reportError: Self.writing(to: errorKeyPath)
        )
    }
}
