extension VersioningController {

    /// Records `value` as the new version: if it differs from the current version, the change
    /// becomes one undo step (and the redo steps of the current scope are dropped).
    ///
    /// Inlinable, with the path it takes, so that a client's build specializes the recording
    /// for its value type: unspecialized, a step spent 43% of its time looking up generic
    /// metadata. So are the other ways to record (the forms below, a transaction, a write
    /// without tracking): each would otherwise run `History.record` unspecialized.
    @inlinable
    public func append(_ value: Value) {
        change { record(value, in: &$0) }
    }

    /// Records `value` as the new version and tags it, even when nothing changed.
    @inlinable
    public func append(_ value: Value, tag: some Hashable & Sendable) {
        change {
            record(value, in: &$0)
            $0.history.perform(.tag(HistoryTag(tag)), policy: $0.policy)
        }
    }

    /// Records the tracked property of `root` as the new version.
    @inlinable
    public func append(root: Root) {
        append(root[keyPath: self.root.keyPath])
    }

    /// Records the tracked property of `root` as the new version and tags it.
    @inlinable
    public func append(root: Root, tag: some Hashable & Sendable) {
        append(root[keyPath: self.root.keyPath], tag: tag)
    }

    /// Makes `value` the current version without recording a step: undo will not take this
    /// change back. With a root object, writes `value` to the root. The change is absorbed
    /// (see ``absorb(_:)->()``): earlier steps still undo wherever `value` holds what they left,
    /// and where it does not, they leave `value`'s content by ``conflictPolicy``.
    @inlinable
    public func setWithoutTracking(_ value: Value) {
        setTrackedValue(value) { history, _ in history.recordWithoutTracking(value) }
    }
}

extension VersioningController where Root: AnyObject {

    /// Records the root object's tracked property as the new version. Does nothing once the
    /// root is gone.
    @inlinable
    public func appendCurrentVersion() {
        guard let object = root.object else { return }
        append(root: object)
    }

    /// Records the root object's tracked property as the new version and tags it.
    @inlinable
    public func appendCurrentVersion(tag: some Hashable & Sendable) {
        guard let object = root.object else { return }
        append(root: object, tag: tag)
    }
}
