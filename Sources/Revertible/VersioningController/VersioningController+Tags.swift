extension VersioningController {

    /// Names the current version `tag`, so ``undo(to:)`` and ``redo(to:)`` can come back to
    /// it. A tag names one version: tagging another moves it. A version can have several.
    ///
    /// With a root object, whatever the root holds now is the version named.
    public func tag(_ tag: some Hashable & Sendable) {
        _ = try? perform(.tag(HistoryTag(tag)))
    }

    /// The original library's name for ``tag(_:)``.
    @available(*, deprecated, renamed: "tag(_:)")
    public func tagCurrentVersion(_ tag: some Hashable & Sendable) {
        self.tag(tag)
    }
}
