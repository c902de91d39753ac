extension Shell {
    /// A feed of the shared list's changes, for a shell on a server; `nil` on a file, which
    /// only this computer changes.
    func makeOthersChangesFeed() -> ChangeFeed? {
        guard let store = session.storage as? TodoServerStore else { return nil }
        return ChangeFeed(conninfo: store.conninfo, displayName: store.displayName, listens: false)
    }

    /// Prints, one line each before the prompt, what others changed since the last prompt,
    /// with who did: positions someone else moved would otherwise surprise the next command.
    /// The first call only notes the list. A server that cannot be reached says nothing
    /// here: the next command reports it.
    func showOthersChanges() {
        guard let feed = othersChanges, let store = session.storage as? TodoServerStore else { return }
        guard let changes = try? feed.changes(excluding: store.person), !changes.isEmpty else { return }
        for line in ListChange.lines(changes) { console.line(line) }
    }
}
