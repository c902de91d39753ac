extension History {

    /// Names the current version `tag`, within the current scope. A tag names one version:
    /// tagging again moves it.
    package mutating func tagCurrentVersion(_ tag: any Hashable & Sendable) {
        tagCurrentVersion(box: TagBox(AnyHashable(tag)))
    }

    /// Names the current version with a tag already erased to `AnyHashable`; the caller
    /// vouches that it was made from a `Sendable` value.
    package mutating func tagCurrentVersion(erased tag: AnyHashable) {
        tagCurrentVersion(box: TagBox(tag))
    }

    mutating func tagCurrentVersion(box: TagBox) {
        // A tagged version is fixed: later changes must not fold into it.
        endGroup()
        removeTag(box.value)
        if scopes[top].undo.isEmpty {
            scopes[top].baseTagBox = box
        } else {
            scopes[top].undo[scopes[top].undo.count - 1].tagBox = box
        }
    }

    private mutating func removeTag(_ tag: AnyHashable) {
        for scope in scopes.indices {
            if scopes[scope].baseTag == tag { scopes[scope].baseTagBox = nil }
            for index in scopes[scope].undo.indices where scopes[scope].undo[index].tag == tag {
                scopes[scope].undo[index].tagBox = nil
            }
            for index in scopes[scope].redo.indices where scopes[scope].redo[index].tag == tag {
                scopes[scope].redo[index].tagBox = nil
            }
        }
    }

    /// The tags of a scope's versions: `undo` from the scope's base version up to and including
    /// the current one, `redo` from the next version on; `nil` for an untagged version.
    package func tags(inScopeLevel level: Int) -> (undo: [AnyHashable?], redo: [AnyHashable?]) {
        guard scopes.indices.contains(level) else { return ([], []) }
        let scope = scopes[level]
        return ([scope.baseTag] + scope.undo.map(\.tag), scope.redo.reversed().map(\.tag))
    }

    /// Undoes until the current version is the one tagged `tag`, within the current scope.
    ///
    /// - Returns: How many steps were undone; `0`, changing nothing, for a tag that names no
    ///   earlier version of the current scope.
    @discardableResult
    package mutating func undo(_ value: inout Value, to tag: AnyHashable) throws(ReversionError) -> Int {
        endGroup()
        let versions = tags(inScopeLevel: top).undo
        guard let position = versions.lastIndex(of: tag) else { return 0 }
        return try undo(&value, steps: versions.count - 1 - position)
    }

    /// Redoes up to and including the step that leads to the version tagged `tag`, within the
    /// current scope.
    ///
    /// - Returns: How many steps were redone; `0`, changing nothing, for an unknown tag.
    @discardableResult
    package mutating func redo(_ value: inout Value, to tag: AnyHashable) throws(ReversionError) -> Int {
        endGroup()
        guard let position = tags(inScopeLevel: top).redo.firstIndex(of: tag) else { return 0 }
        return try redo(&value, steps: position + 1)
    }
}
