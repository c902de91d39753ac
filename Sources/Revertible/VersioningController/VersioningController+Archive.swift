extension VersioningController {

    /// Replaces the history with the one `archive` holds, which was saved while the current
    /// version was what ``currentVersion`` is now. Undo and redo then do exactly what they did
    /// before saving; settings (limit, debouncing) stay the controller's.
    ///
    /// Checked here, without looking at any step's content but the few next to the current
    /// version: the structure (every version reachable, every scope able to end; see
    /// ``HistoryArchive/validate(present:)`` for the list), and that the steps undo and redo
    /// would take next apply to the current version. A current version `==` to the saved one
    /// that spells a string those steps wrote in the other Unicode normalization form is
    /// accepted, and the history keeps the steps' spelling.
    ///
    /// Checked where a command first reads a step (and only then): its checksum and its
    /// place, and that it applies where the command applies it. A command that meets a
    /// damaged step (or one that does not fit, the current version not being the saved one)
    /// changes nothing and fails with ``HistoryError/unreadableStep(_:_:)``, naming the step;
    /// steps it does not reach stay usable. ``HistoryArchive/validate(present:)`` checks
    /// everything, every step, on demand.
    ///
    /// - Complexity: O(*s*), where *s* is the number of steps, in their places alone (the
    ///   limit, if the archive holds more steps than it allows, reads those it drops).
    /// - Throws: ``HistoryArchiveError`` if the structure is damaged, or a step next to the
    ///   current version does not apply to it (the archive was saved with another current
    ///   version), naming the step. The history is then unchanged.
    public func restoreHistory(from archive: HistoryArchive<Value>) throws(HistoryArchiveError) {
        let result = change { storage -> Result<Void, HistoryArchiveError> in
            do throws(HistoryArchiveError) {
                var loaded = try History<Value, NoAnnotation>(present: storage.history.current, archive: archive)
                loaded.trim(to: storage.policy.limit)
                // Trimming reads the steps it drops: one that failed is the archive's damage.
                if loaded.readFailures > 0, case let .unreadableStep(_, error) = loaded.lastReadFailure {
                    throw error
                }
                storage.history = loaded
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Replaces the history with the one `store` holds, saved while the current version was
    /// what ``currentVersion`` is now, reading only its outline and the steps next to the
    /// present: each other step is read, and checked, when a command first crosses it. A
    /// command that cannot read a step it needs changes nothing and fails with
    /// ``HistoryError/unreadableStep(_:_:)``. An empty store gives an empty history.
    ///
    /// - Complexity: O(1) reads of steps for a history without branches, scopes or tags,
    ///   whatever its length.
    /// - Throws: ``HistoryArchiveError`` if the outline is damaged or does not fit the current
    ///   version. The history is then unchanged.
    public func openHistory(from store: some HistoryStepStore<Value>) throws(HistoryArchiveError) {
        let result = change { storage -> Result<Void, HistoryArchiveError> in
            do throws(HistoryArchiveError) {
                var opened = try History<Value, NoAnnotation>(present: storage.history.current, store: store)
                opened.trim(to: storage.policy.limit)
                storage.history = opened
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Writes what changed in the history since it was opened or last saved to `store` (the
    /// history's own, or an empty one, which then receives every step): the new and changed
    /// steps, the dropped versions, and the outline. The history reads from `store` from then
    /// on. On a failure, the error is the store's and nothing changes here.
    public func saveHistory(to store: some HistoryStepStore<Value>) throws {
        let result = change { storage -> Result<Void, any Error> in
            do {
                try storage.history.save(to: store)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Checks the history's structure, reading every step of a history opened over a store:
    /// for tests, after each operation of a randomized run.
    package func _historyInvariantCheck() {
        read { $0.history._invariantCheck() }
    }
}
