import Revertible

extension UndoableState {

    /// The state `archive` was saved from, at `present`: undo and redo then do exactly what
    /// they did before saving.
    ///
    /// The same loading as `VersioningController.restoreHistory(from:)`, by the same code.
    /// Checked here: the structure, and the steps next to `present` (the one undo takes,
    /// those redo can take), which must apply to it; no other step's content is looked at.
    /// Checked where an undo, redo or move first reads a step: its checksum and place, and
    /// that it applies where it is applied; an action that meets a damaged step changes
    /// nothing, and ``error`` is `HistoryError.unreadableStep`, naming the step.
    /// `HistoryArchive.validate(present:)` checks everything, every step, on demand. A loaded
    /// step keeps its label but not the actions that made it, so ``replay(of:)`` covers only
    /// the steps recorded since loading.
    ///
    /// - Complexity: O(*s*), where *s* is the number of steps, in their places alone.
    /// - Throws: `HistoryArchiveError` if the structure is damaged or a step next to
    ///   `present` does not apply to it (the archive was not saved with this present), naming
    ///   the step. Nothing is loaded.
    public init(present: State, archive: HistoryArchive<State>) throws(HistoryArchiveError) {
        try self.init(present: present, archive: archive, checkingEveryStep: true)
    }

    /// The same, where a step that does not apply exactly is another program's change (left
    /// to the conflict policy) rather than damage when `checkingEveryStep` is `false`, which
    /// also reads, so checks, every step here: for a store whose present other programs also
    /// write, and which saves what it loads (see `History`'s loading).
    package init(present: State, archive: HistoryArchive<State>, checkingEveryStep: Bool) throws(HistoryArchiveError) {
        storedPresent = present
        engine = try History(present: present, archive: archive, checkingEveryStep: checkingEveryStep)
    }
}

extension UndoableState {

    /// The state whose history `store` holds, at `present`, reading only what commands need:
    /// the outline now, and each step when an undo, redo or move first crosses it.
    ///
    /// Opening checks the outline and the steps next to `present` (the one undo takes and
    /// those redo can take); every other step is checked when it is read, and a command that
    /// cannot read a step it needs changes nothing and fails with
    /// `HistoryError.unreadableStep`. `HistoryArchive.validate(present:)` checks a whole
    /// archive on demand. An empty store opens an empty history.
    ///
    /// - Complexity: O(1) reads of steps for a history without branches, scopes or tags,
    ///   whatever its length.
    /// - Throws: `HistoryArchiveError` if the outline is damaged or does not fit `present`.
    public init(present: State, store: some HistoryStepStore<State>) throws(HistoryArchiveError) {
        storedPresent = present
        engine = try History(present: present, store: store)
    }

    /// What ``saveHistory(to:)`` writes: the steps added or changed since the history was
    /// opened or last saved, the versions dropped since, and the outline.
    ///
    /// - Complexity: O(*k*) for *k* steps changed.
    public var unsavedHistoryChanges: HistoryArchive<State>.Changes {
        engine.unsavedChanges
    }

    /// Writes ``unsavedHistoryChanges`` to `store` (the history's own, or an empty one, which
    /// then receives every step), and reads from it from then on. On a failure, the error is
    /// the store's and nothing changes here.
    public mutating func saveHistory(to store: some HistoryStepStore<State>) throws {
        try engine.save(to: store)
    }

    /// The `undo` steps nearest the present, oldest first, and the `redo` steps redo would
    /// take, next first: reads no further into a long history than that.
    package func nearestSteps(undo: Int, redo: Int) -> (undo: [HistoryStep], redo: [HistoryStep]) {
        engine.nearestSteps(undo: undo, redo: redo)
    }

    /// The current scope's oldest version, how many steps it holds, and how many branches
    /// beyond one leave its versions; reads no step.
    package var currentScopeShape: (floor: HistoryVersion, stepCount: Int, extraBranches: Int) {
        engine.currentScopeShape
    }

    /// The versions of the current scope's steps, oldest first (`tree()`'s order), unread.
    package func currentScopeVersions() -> [HistoryVersion] {
        engine.currentScopeVersions()
    }

    /// The step leading to `version` in the current scope, as `tree()` describes it.
    package func currentScopeStep(_ version: HistoryVersion) -> HistoryStep? {
        engine.currentScopeStep(version)
    }

    /// The versions `version` leads to in the current scope; redo follows the last.
    package func currentScopeBranches(from version: HistoryVersion) -> [HistoryVersion] {
        engine.currentScopeBranches(from: version)
    }

    /// Runs `body`, a walk over the current scope, keeping at most `window` of the steps it
    /// reads in memory: a listing of a long history stays flat.
    package func readingStepsWithin<R>(window: Int, _ body: () throws -> R) rethrows -> R {
        try engine.readingStepsWithin(window: window, body)
    }

    /// Reads and checks every step of the history, and its structure (see `todo check`).
    ///
    /// - Returns: How many steps were checked.
    package func checkEveryHistoryStep() throws(HistoryArchiveError) -> Int {
        try engine.checkEverySavedStep()
    }

    /// The last step the history failed to read since it was opened or saved, as
    /// `HistoryError.unreadableStep`; `nil` when every read succeeded. A command that cannot
    /// read a step changes nothing and says so in ``error``, but a read outside a command
    /// (``undoCount``, a listing of the steps) answers as if the step were absent: a caller
    /// that writes the state back checks this first.
    package var historyReadFailure: HistoryError? {
        engine.readFailure
    }

    /// Throws unless the history's steps next to the present apply to it (the one undo takes
    /// and those redo can take): what opening the history again checks, without the rest.
    package func checkHistoryFitsPresent() throws(HistoryArchiveError) {
        try engine.checkStepsNextToPresent()
    }

    /// Takes note that ``unsavedHistoryChanges`` were written to `store` by the caller (in a
    /// transaction of its own, say): the history reads from `store` from then on.
    public mutating func historyWasSaved(to store: some HistoryStepStore<State>) {
        engine.attach(store, outline: engine.unsavedChanges.outline)
    }
}

/// The present and the history's archive: `{"present": …, "history": …}`.
///
/// The present written is the history's own copy of it, the exact version its steps were
/// made from. It equals ``present``; the two can differ only in bytes that equality does not
/// see (a string re-spelled in a canonically equivalent form that no step recorded), and
/// then the loaded present has the history's spelling, so undo keeps working.
extension UndoableState: Codable where State: Codable {

    private enum Keys: String, CodingKey { case present, history }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let present = try container.decode(State.self, forKey: .present)
        let archive = try container.decode(HistoryArchive<State>.self, forKey: .history)
        do {
            try self.init(present: present, archive: archive)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .history, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(engine.current, forKey: .present)
        try container.encode(archive, forKey: .history)
    }
}
