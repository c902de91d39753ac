import StateMachine

/// The shell's modes, as states of the StateMachine module. The transition rules below are
/// checked on every change; the shell's hook (``Shell/stateDidChange(from:to:)``) turns each
/// change into the prompt.
///
/// ```
///            begin ──▶                      quit, end of input
///   Normal ◀──────────▶ InScope ─────────────────────▶ Finished
///     │  ◀─ commit/rollback ─  │                         ▲
///     │   clear, rollback      │ clear, rollback          │ (not from Confirming:
///     └────────▶ Confirming ◀──┘                         │  answer or cancel first)
///                  y/n ──▶ Normal or InScope, by the file's scope level
/// ```
extension Shell {

    /// Commands run as typed; no scope is open.
    public struct Normal: State {
        public typealias Owner = Shell
        public static var successors: Successors<Shell> { .only(InScope.self, Confirming.self, Finished.self) }
        public init() {}
    }

    /// A scope is open (`begin`): changes will become one undo step on `commit`.
    public struct InScope: State {
        public typealias Owner = Shell
        public static var successors: Successors<Shell> { .only(Normal.self, Confirming.self, Finished.self) }
        /// How many scopes are open.
        public var level: Int

        public init(level: Int) {
            self.level = level
        }
    }

    /// A destructive command waits for a yes or no; the next line is the answer.
    public struct Confirming: State {
        public typealias Owner = Shell
        // A pending question is answered or cancelled before anything else, leaving included,
        // so the shell never quits with a command half decided.
        public static var successors: Successors<Shell> { .only(Normal.self, InScope.self) }
        public var question: String
        /// The command to run on "y".
        public var command: Command

        public init(question: String, command: Command) {
            self.question = question
            self.command = command
        }
    }

    /// `quit` or the end of input: no line is run after this.
    public struct Finished: State {
        public typealias Owner = Shell
        public static var successors: Successors<Shell> { .none }
        public init() {}
    }
}
