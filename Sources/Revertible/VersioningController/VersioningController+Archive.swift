extension VersioningController {

    /// Replaces the history with the one `archive` holds, which was saved while the current
    /// version was what ``currentVersion`` is now. Undo and redo then do exactly what they did
    /// before saving; settings (limit, debouncing) stay the controller's.
    ///
    /// Every step is checked first (see ``HistoryArchive/validate(present:)``), so a restored
    /// history reaches every version and ends every scope. A current version `==` to the saved
    /// one that spells a string in the other Unicode normalization form is accepted, and the
    /// history keeps the steps' spelling.
    ///
    /// - Complexity: O(*s* + *c*), where *s* is the number of steps and *c* the size of their
    ///   changes.
    /// - Throws: ``HistoryArchiveError`` if the archive is damaged or was saved with another
    ///   current version (a step does not apply), naming the step. The history is then
    ///   unchanged.
    public func restoreHistory(from archive: HistoryArchive<Value>) throws(HistoryArchiveError) {
        let result = change { storage -> Result<Void, HistoryArchiveError> in
            do throws(HistoryArchiveError) {
                var loaded = try History<Value, NoAnnotation>(present: storage.history.current, archive: archive)
                loaded.trim(to: storage.policy.limit)
                storage.history = loaded
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
