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

    /// The tags of the current scope's versions, `nil` where a version has none: `undo` lists
    /// the versions from the scope's start up to the current one, `redo` the versions ahead,
    /// next first. For example `(["original", nil, "without-child"], ["with-child"])`.
    public func tags() -> (undo: [HistoryTag?], redo: [HistoryTag?]) {
        read { $0.history.tags(inScopeLevel: $0.history.scopeLevel)! }
    }

    /// The tags of the versions of the scope at `level`, or `nil` if there is no such scope.
    public func tags(inScopeLevel level: Int) -> (undo: [HistoryTag?], redo: [HistoryTag?])? {
        read { $0.history.tags(inScopeLevel: level) }
    }

    /// The tags of the current version, oldest first.
    public var currentVersionTags: [HistoryTag] {
        read { $0.history.currentTags }
    }

    /// Where the version tagged `tag` is, seen from the present: `.present` for a document
    /// saved at the version tagged `"saved"`, say.
    public func location(of tag: some Hashable & Sendable) -> HistoryTagLocation {
        read { $0.history.location(of: HistoryTag(tag)) }
    }

    /// The steps of the current scope: `undo` oldest first, `redo` next first.
    public func steps() -> (undo: [HistoryStep], redo: [HistoryStep]) {
        read { $0.history.steps(inScopeLevel: $0.history.scopeLevel)! }
    }

    /// The steps of the scope at `level`, or `nil` if there is no such scope.
    public func steps(inScopeLevel level: Int) -> (undo: [HistoryStep], redo: [HistoryStep])? {
        read { $0.history.steps(inScopeLevel: level) }
    }

    /// The identifier of the current version.
    public var currentVersionID: HistoryVersion {
        read { $0.history.currentVersionID }
    }

    /// The steps that leave `version` in the current scope: more than one where a change
    /// after an undo started a branch. Redo follows the last.
    public func branches(from version: HistoryVersion) -> [HistoryStep] {
        read { $0.history.branches(from: version) }
    }

    /// Every step of the current scope, in the order they were made; each step's `parent`
    /// links it into the tree of versions.
    public func tree() -> [HistoryStep] {
        read { $0.history.tree() }
    }
}
