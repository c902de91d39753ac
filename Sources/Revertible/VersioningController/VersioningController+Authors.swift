extension VersioningController {

    /// Who makes the changes recorded from now on: every step recorded while it is set (an
    /// append, an observed change, a transaction, a debounced burst) carries it, and
    /// ``undo(by:onConflict:)`` takes back only that author's steps. `nil` (the default)
    /// records steps without author. A burst never joins steps of different authors.
    public var author: HistoryAuthor? {
        get { read { $0.policy.author } }
        set { change { $0.policy.author = newValue } }
    }

    /// Takes back the newest step of `author` in the current scope that is not taken back
    /// yet, leaving every other author's later steps in place, and returns the new version.
    ///
    /// Selective: each location the step wrote is reverted where it still holds what the step
    /// left there; a location someone else has changed since is a conflict, handled by
    /// `policy` (``ConflictPolicy/skip`` by default: left as the other writer set it). The
    /// history does not move back: the undo is recorded as a new step by `author`, which
    /// plain ``undo(to:)`` can take back like any other. A step whose every location someone
    /// else has changed since has nothing left to take back and is passed over for the next
    /// older one, so an author's undo never stalls. With nothing of `author`'s to take back,
    /// nothing changes.
    ///
    /// ```swift
    /// controller.author = "ana"
    /// controller.append(anaEdit)
    /// controller.author = "ben"
    /// controller.append(benEdit)
    /// try controller.undo(by: "ana") // ana's edit is gone, ben's stays
    /// ```
    ///
    /// - Parameters:
    ///   - author: Whose newest step to take back.
    ///   - policy: What to do where someone else changed a location since; `nil` for the
    ///     controller's (skip those locations, unless set otherwise). ``ConflictPolicy/refuse``
    ///     changes nothing and reports the conflicts (``HistoryError/stepRefused(_:step:)``).
    @discardableResult
    public func undo(by author: HistoryAuthor, onConflict policy: ConflictPolicy? = nil) throws(Failure) -> Value {
        try perform(.undoByAuthor(author), onConflict: policy)
    }

    /// Takes back the newest ``undo(by:onConflict:)`` of `author` that is not taken back yet,
    /// selectively, as a new step by `author`, and returns the new version. An ordinary step
    /// recorded by `author` since that undo ends its redo: then nothing changes.
    @discardableResult
    public func redo(by author: HistoryAuthor, onConflict policy: ConflictPolicy? = nil) throws(Failure) -> Value {
        try perform(.redoByAuthor(author), onConflict: policy)
    }

    /// Whether ``undo(by:onConflict:)`` would do anything: the state of a per-person Undo
    /// button. It tries the undo on a copy, so it agrees with the undo exactly: `false` where
    /// the author's steps have nothing left to take back. A step `policy` would refuse counts
    /// (pressing the button then reports the conflicts).
    ///
    /// - Parameters:
    ///   - author: Whose steps the button takes back.
    ///   - policy: The policy the undo will run under; `nil` for the controller's.
    public func hasUndo(by author: HistoryAuthor, onConflict policy: ConflictPolicy? = nil) -> Bool {
        nextUndo(by: author, onConflict: policy) != nil
    }

    /// Whether ``redo(by:onConflict:)`` would do anything, as ``hasUndo(by:onConflict:)``.
    public func hasRedo(by author: HistoryAuthor, onConflict policy: ConflictPolicy? = nil) -> Bool {
        nextRedo(by: author, onConflict: policy) != nil
    }

    /// The step ``undo(by:onConflict:)`` would take back, for the button's title ("Undo
    /// Add “milk”"), or `nil` when it would do nothing (see ``hasUndo(by:onConflict:)``).
    public func nextUndo(by author: HistoryAuthor, onConflict policy: ConflictPolicy? = nil) -> HistoryStep? {
        read { $0.history.nextUndo(by: author, onConflict: policy ?? $0.policy.conflictPolicy) }
    }

    /// The undo step by `author` that ``redo(by:onConflict:)`` would take back, or `nil` when
    /// it would do nothing.
    public func nextRedo(by author: HistoryAuthor, onConflict policy: ConflictPolicy? = nil) -> HistoryStep? {
        read { $0.history.nextRedo(by: author, onConflict: policy ?? $0.policy.conflictPolicy) }
    }
}
