import StateMachine

/// The shell's modes, as states of the StateMachine module. The transition rules say which
/// mode may follow which; the shell's hook (``Shell/stateDidChange(from:to:)``) turns each
/// change into the prompt.
///
/// ```
///   Normal ──begin──▶ InScope ──commit/rollback──▶ Normal
///      │                 │
///      └──clear──▶ Confirming ◀──clear/rollback──┘
///                 (y/n) ──▶ Normal or InScope, from the file's scope level
/// ```
extension Shell {

    /// Commands run as typed; no scope is open.
    public struct Normal: State {
        public typealias Owner = Shell
        public static var successors: Successors<Shell> { .only(InScope.self, Confirming.self) }
        public init() {}
    }

    /// A scope is open (`begin`): changes will become one undo step on `commit`.
    public struct InScope: State {
        public typealias Owner = Shell
        public static var successors: Successors<Shell> { .only(Normal.self, Confirming.self) }
        /// How many scopes are open.
        public var level: Int
    }

    /// A destructive command waits for a yes or no; the next line is the answer.
    public struct Confirming: State {
        public typealias Owner = Shell
        // An answer leads back to one of the working modes, never to another question.
        public static var successors: Successors<Shell> { .only(Normal.self, InScope.self) }
        public var question: String
        /// The command to run on "y".
        public var command: Command
    }
}
