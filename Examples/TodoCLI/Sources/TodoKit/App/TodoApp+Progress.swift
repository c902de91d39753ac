extension TodoApp {
    /// Runs `command` in `session`, with a ``ProgressLine`` on standard error while a server
    /// writes its items: an import of 100,000 items takes many seconds there, which in
    /// silence looks like a hang. The line shows only on a terminal and after a second.
    static func runShowingProgress(_ command: Command, in session: TodoSession) throws(TodoError) -> String {
        guard command.isChange, let store = session.storage as? TodoServerStore else { return try session.run(command) }
        let line = ProgressLine.onStandardError(label: progressLabel(of: command))
        store.progress = { line.update(done: $0, total: $1) }
        defer {
            store.progress = nil
            line.finish()
        }
        return try session.run(command)
    }

    /// What the progress line says is being done.
    static func progressLabel(of command: Command) -> String {
        if case .importJSON = command { return "importing" }
        return "writing"
    }
}
