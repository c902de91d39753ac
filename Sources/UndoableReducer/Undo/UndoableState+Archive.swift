import Revertible

extension UndoableState {

    /// The history without the present, in the pieces a store saves one at a time: write
    /// ``HistoryArchive/changes(since:)`` after each action, or the whole archive. Encodes
    /// nothing.
    ///
    /// A loaded step keeps its label but not the actions that made it, so
    /// ``replay(of:)`` covers only the steps recorded since loading.
    ///
    /// - Complexity: O(*n*) in the number of steps.
    public var archive: HistoryArchive<State> { history.archive }

    /// The state `archive` was saved from, at `present`: undo and redo then do exactly what
    /// they did before saving.
    ///
    /// - Throws: ``HistoryArchiveError`` if the archive is damaged or was not saved with this
    ///   present (the steps next to it do not apply). Nothing is loaded.
    public init(present: State, archive: HistoryArchive<State>) throws(HistoryArchiveError) {
        self.present = present
        history = try History(present: present, archive: archive)
    }
}

/// The present and the history's archive: `{"present": …, "history": …}`.
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
        try container.encode(present, forKey: .present)
        try container.encode(archive, forKey: .history)
    }
}
