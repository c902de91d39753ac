import StateMachine
import Testing

/// An owner with no isolation, so the helpers run wherever it is used.
private final class Lamp: Stateful {
    var state: Any?
    struct Off: State { typealias Owner = Lamp }
    struct On: State { typealias Owner = Lamp; var brightness: Int }
}

private let offName = String(reflecting: Lamp.Off.self)
private let onName = String(reflecting: Lamp.On.self)

@Suite("Stateful reads and writes")
struct StatefulTests {
    @Test("currentState() returns the state, whatever its type")
    func currentStateReturnsTheState() throws {
        let lamp = Lamp()
        lamp.set(Lamp.On(brightness: 3))

        #expect(try (lamp.currentState() as? Lamp.On)?.brightness == 3)
    }

    @Test("currentState() throws when there is no state")
    func currentStateWithoutState() {
        #expect(throws: StateError.noCurrentState) {
            try Lamp().currentState()
        }
    }

    @Test("currentState(as:) returns the state only when it is of that type")
    func typedRead() {
        let lamp = Lamp()
        #expect(lamp.currentState(as: Lamp.On.self) == nil)

        lamp.set(Lamp.Off())
        #expect(lamp.currentState(as: Lamp.On.self) == nil)
        #expect(lamp.currentState(as: Lamp.Off.self) != nil)

        lamp.set(Lamp.On(brightness: 7))
        #expect(lamp.currentState(as: Lamp.On.self)?.brightness == 7)
    }

    @Test("isIn(_:) tells which state the object is in")
    func isIn() {
        let lamp = Lamp()
        #expect(!lamp.isIn(Lamp.Off.self))
        #expect(!lamp.isIn(Lamp.On.self))

        lamp.set(Lamp.On(brightness: 1))
        #expect(lamp.isIn(Lamp.On.self))
        #expect(!lamp.isIn(Lamp.Off.self))
    }

    @Test("update(_:mutation:) changes the current state's data in place")
    func updateInPlace() throws {
        let lamp = Lamp()
        lamp.set(Lamp.On(brightness: 1))

        try lamp.update(Lamp.On.self) { $0.brightness *= 10 }

        #expect(lamp.currentState(as: Lamp.On.self)?.brightness == 10)
    }

    @Test("update(_:mutation:) in the wrong state throws and changes nothing")
    func updateInWrongState() {
        let lamp = Lamp()
        lamp.set(Lamp.Off())
        var mutated = false

        #expect(throws: StateError.wrongState(expected: onName, found: offName)) {
            try lamp.update(Lamp.On.self) { _ in mutated = true }
        }
        #expect(!mutated)
        #expect(lamp.isIn(Lamp.Off.self))
    }

    @Test("update(_:mutation:) without a state throws and leaves none")
    func updateWithoutState() {
        let lamp = Lamp()

        #expect(throws: StateError.wrongState(expected: onName, found: nil)) {
            try lamp.update(Lamp.On.self) { $0.brightness = 5 }
        }
        #expect(lamp.state == nil)
    }

    @Test("update(_:mutation:) over a value that isn't a State names its type")
    func updateOverForeignValue() {
        let lamp = Lamp()
        lamp.state = "broken"

        #expect(throws: StateError.wrongState(expected: onName, found: "Swift.String")) {
            try lamp.update(Lamp.On.self) { $0.brightness = 5 }
        }
        #expect(lamp.state as? String == "broken")
    }

    @Test("update(_:) replaces a state of the same type")
    func updateWithValue() throws {
        let lamp = Lamp()
        lamp.set(Lamp.On(brightness: 1))

        try lamp.update(Lamp.On(brightness: 4))

        #expect(lamp.currentState(as: Lamp.On.self)?.brightness == 4)
    }

    @Test("update(_:) in the wrong state throws and changes nothing")
    func updateWithValueInWrongState() {
        let lamp = Lamp()
        lamp.set(Lamp.On(brightness: 2))

        #expect(throws: StateError.wrongState(expected: offName, found: onName)) {
            try lamp.update(Lamp.Off())
        }
        #expect(lamp.currentState(as: Lamp.On.self)?.brightness == 2)
    }

    @Test("resetCurrentState() leaves no state, and is harmless without one")
    func reset() {
        let lamp = Lamp()
        lamp.resetCurrentState()
        #expect(lamp.state == nil)

        lamp.set(Lamp.On(brightness: 1))
        lamp.resetCurrentState()
        #expect(lamp.state == nil)
    }

    @Test("Errors describe themselves in a sentence")
    func errorDescriptions() {
        #expect(StateError.noCurrentState.description == "There is no current state.")
        #expect(
            StateError.wrongState(expected: "A", found: "B").description
                == "Expected the state to be A, but it is B."
        )
        #expect(
            StateError.wrongState(expected: "A", found: nil).description
                == "Expected the state to be A, but there is no current state."
        )
        #expect(
            StateError.forbiddenTransition(from: "A", to: "B").description
                == "A may not be followed by B."
        )
    }
}
