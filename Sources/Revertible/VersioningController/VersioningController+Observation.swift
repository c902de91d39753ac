import Observation

extension VersioningController where Root: Observable & AnyObject, Failure == HistoryError {

    // These initializers repeat the object initializers' parameters (VersioningController+
    // Initializers.swift) because a public initializer's labels and defaults cannot be
    // shared; each is the matching `init(on:at:...)`, then observes the root.

    /// Tracks the property at `keyPath` of an `@Observable` object, held weakly, and records
    /// every change to it on its own: no `append` calls. Undo and redo write the property
    /// without being recorded as changes.
    ///
    /// ```swift
    /// let controller = VersioningController(observing: model, at: \.activity)
    /// model.activity.title = "New title"
    /// try controller.undo() // model.activity.title == "Title"
    /// ```
    ///
    /// Each change is recorded when the next one starts, or when the controller is next used,
    /// whichever comes first; so every change is its own step (or joins a debounced burst),
    /// exactly as if you had appended after each.
    public convenience init(
        observing root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            on: root, at: keyPath,
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock, isolation: isolation
        )
        observeRoot()
    }
}

extension VersioningController where Root: Observable & AnyObject, Failure == Never {

    /// Tracks and records every change of the property at `keyPath` of an `@Observable`
    /// object, writing any error to its property at `errorKeyPath` instead of throwing.
    public convenience init(
        observing root: Root,
        at keyPath: ReferenceWritableKeyPath<Root, Value>,
        errorKeyPath: ReferenceWritableKeyPath<Root, (any Error)?>,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(),
        isolation: isolated (any Actor)? = #isolation
    ) {
        self.init(
            on: root, at: keyPath, errorKeyPath: errorKeyPath,
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock, isolation: isolation
        )
        observeRoot()
    }
}

extension VersioningController {

    /// Registers for the next change of the root's tracked property.
    ///
    /// Observation reports a change before it happens (`willSet`), so the new value cannot be
    /// read then. Instead each report records the value the previous change left, and marks
    /// the reported change pending; a pending change is recorded by the next report or by the
    /// next use of the controller.
    func observeRoot() {
        guard let object = root.object else { return }
        let observer = ObserverReference(self)
        withObservationTracking {
            readTrackedProperty(of: object)
        } onChange: {
            observer.target?.rootWillChange()
        }
    }

    private func readTrackedProperty(of object: Root) {
        _ = object[keyPath: root.keyPath]
    }

    func rootWillChange() {
        let isOwnWrite = storage.withLockUnchecked { storage in
            if storage.isWritingRoot { return true }
            flushPendingChange(&storage)
            storage.pendingChange = storage.policy.now()
            storage.willChangeDepth += 1
            return false
        }
        observeRoot()
        guard !isOwnWrite else { return }
        notifyObservers()
        storage.withLockUnchecked { $0.willChangeDepth -= 1 }
    }
}

/// Receives the root's change reports.
protocol RootObserver: AnyObject {
    func rootWillChange()
}

extension VersioningController: RootObserver {}

/// The controller, weakly, for Observation's `Sendable` change callback.
final class ObserverReference: @unchecked Sendable {
    // Observation calls back synchronously on the thread that is changing the root, which is
    // the root's own isolation, where the controller is used too.
    weak var target: (any RootObserver)?

    init(_ target: any RootObserver) {
        self.target = target
    }
}
