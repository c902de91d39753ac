extension VersioningController {

    /// The history without the current version, for saving (it is `Codable` when `Value` is):
    /// the whole archive, or ``HistoryArchive/changes(since:)`` after each change. Encodes
    /// nothing.
    ///
    /// Save ``currentVersion`` beside it: loading checks the archive against it.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public var archive: HistoryArchive<Value> { read { $0.history.archive } }

    /// Replaces the history with the one `archive` holds, which was saved while the current
    /// version was what ``currentVersion`` is now. Undo and redo then do exactly what they did
    /// before saving; settings (limit, debouncing) stay the controller's.
    ///
    /// - Throws: ``HistoryArchiveError`` if the archive is damaged or was saved with another
    ///   current version (the steps next to it do not apply). The history is then unchanged.
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
