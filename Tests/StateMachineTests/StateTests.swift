import StateMachine
import Testing

/// Two owners that both have a state called `Idle`.
private final class Printer: Stateful {
    var state: Any?
    struct Idle: State, Hashable { typealias Owner = Printer; var queued = 0 }
}

private final class Scanner: Stateful {
    var state: Any?
    struct Idle: State { typealias Owner = Scanner }
    struct Custom: State {
        typealias Owner = Scanner
        var identifier: String { "scanner.\(mode)" }
        var mode: String
    }
}

@Suite("State")
struct StateTests {
    @Test("The default identifier is the type's fully qualified name")
    func defaultIdentifier() {
        #expect(Printer.Idle().identifier == String(reflecting: Printer.Idle.self))
        #expect(Printer.Idle().identifier.hasSuffix("Printer.Idle"))
    }

    @Test("Same-named states of different owners have different identifiers")
    func identifiersAreUniqueAcrossOwners() {
        #expect(Printer.Idle().identifier != Scanner.Idle().identifier)
    }

    @Test("Values of the same state are equal whatever their data")
    func equalityIgnoresData() {
        #expect(Printer.Idle(queued: 1) == Printer.Idle(queued: 9))
    }

    @Test("A custom identifier decides equality")
    func customIdentifier() {
        #expect(Scanner.Custom(mode: "color") == Scanner.Custom(mode: "color"))
        #expect(Scanner.Custom(mode: "color") != Scanner.Custom(mode: "gray"))
    }

    @Test("A Hashable state hashes like it compares")
    func hashingAgreesWithEquality() {
        let states: Set = [Printer.Idle(queued: 1), Printer.Idle(queued: 9)]
        #expect(states.count == 1)
        #expect(Printer.Idle(queued: 1).hashValue == Printer.Idle(queued: 9).hashValue)
    }
}
