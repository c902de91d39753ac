extension TodoApp {
    /// Runs `command` in `session`, with a ``ProgressLine`` on standard error: an import of
    /// 100,000 items takes many seconds on a server (and a few on a file), which in silence
    /// looks like a hang. The line shows only on a terminal and after a second; a server
    /// store counts the items it writes, a file's import shows the label alone.
    static func runShowingProgress(_ command: Command, in session: TodoSession, writing write: @escaping (String) -> Bool) throws(TodoError) {
        let store = session.storage as? TodoServerStore
        let isImport = if case .importJSON = command { true } else { false }
        guard command.isChange, store != nil || isImport else { return try session.run(command, writing: write) }
        let line = ProgressLine.onStandardError(label: progressLabel(of: command))
        store?.progress = { line.update(done: $0, total: $1) }
        defer {
            store?.progress = nil
            line.finish()
        }
        try session.run(command, writing: write)
    }

    /// What the progress line says is being done.
    static func progressLabel(of command: Command) -> String {
        if case .importJSON = command { return "importing" }
        return "writing"
    }
}
