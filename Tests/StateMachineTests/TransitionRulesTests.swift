import StateMachine
import Testing

/// A door that opens and closes, locks only when closed, and once demolished
/// stays demolished.
private final class Door: Stateful {
    var state: Any?

    struct Open: State {
        typealias Owner = Door
        static var successors: Successors<Door> { .only(Closed.self) }
    }

    struct Closed: State {
        typealias Owner = Door
        static var successors: Successors<Door> { .only(Open.self, Locked.self, Demolished.self) }
    }

    struct Locked: State {
        typealias Owner = Door
        static var successors: Successors<Door> { .only(Closed.self) }
        var code: Int
    }

    struct Demolished: State {
        typealias Owner = Door
        static var successors: Successors<Door> { .none }
    }

    /// Declares no rule, so anything may follow it.
    struct Unknown: State {
        typealias Owner = Door
    }
}

private func name(_ type: Any.Type) -> String { String(reflecting: type) }

@Suite("Transition rules")
struct TransitionRulesTests {
    @Test("Any state may come first")
    func firstStateIsFree() throws {
        let door = Door()

        try door.transition(to: Door.Locked(code: 1))

        #expect(door.isIn(Door.Locked.self))
    }

    @Test("A listed successor may follow")
    func allowedTransitions() throws {
        let door = Door()
        door.set(Door.Open())

        try door.transition(to: Door.Closed())
        try door.transition(to: Door.Locked(code: 42))

        #expect(door.currentState(as: Door.Locked.self)?.code == 42)
    }

    @Test("An unlisted state throws and leaves the state as it was")
    func forbiddenTransition() {
        let door = Door()
        door.set(Door.Locked(code: 7))

        #expect(throws: StateError.forbiddenTransition(from: name(Door.Locked.self), to: name(Door.Open.self))) {
            try door.transition(to: Door.Open())
        }
        #expect(door.currentState(as: Door.Locked.self)?.code == 7)
    }

    @Test("Another value of the current state is always allowed")
    func sameStateIsAllowed() throws {
        let door = Door()
        door.set(Door.Locked(code: 1))

        try door.transition(to: Door.Locked(code: 2))
        #expect(door.currentState(as: Door.Locked.self)?.code == 2)

        door.set(Door.Demolished())
        try door.transition(to: Door.Demolished())
        #expect(door.isIn(Door.Demolished.self))
    }

    @Test("A final state allows no other state to follow")
    func finalState() {
        let door = Door()
        door.set(Door.Demolished())

        for next: any State<Door> in [Door.Open(), Door.Closed(), Door.Locked(code: 0), Door.Unknown()] {
            #expect(throws: StateError.self) {
                try door.transition(to: next)
            }
        }
        #expect(door.isIn(Door.Demolished.self))
    }

    @Test("A state without rules allows every successor")
    func noRules() throws {
        let door = Door()
        door.set(Door.Unknown())

        try door.transition(to: Door.Demolished())

        #expect(door.isIn(Door.Demolished.self))
    }

    @Test("set(_:) doesn't check the rules")
    func setIgnoresRules() {
        let door = Door()
        door.set(Door.Demolished())

        door.set(Door.Open())

        #expect(door.isIn(Door.Open.self))
    }

    @Test("Resetting is allowed from any state")
    func resetIgnoresRules() {
        let door = Door()
        door.set(Door.Demolished())

        door.resetCurrentState()

        #expect(door.state == nil)
    }

    @Test("A value that isn't a State has no rules to check")
    func foreignValueHasNoRules() throws {
        let door = Door()
        door.state = 404

        try door.transition(to: Door.Open())

        #expect(door.isIn(Door.Open.self))
    }
}
