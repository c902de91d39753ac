import Foundation
import StateMachine
import Testing

/// A discrete state without rules.
private enum Connection: DiscreteState {
    case offline
    case online(latency: Int)
}

@Suite("DiscreteState")
struct DiscreteStateTests {
    @Test("Without a rule, every change is allowed")
    func noRules() throws {
        var connection = Connection.offline

        try connection.transition(to: .online(latency: 20))
        try connection.transition(to: .online(latency: 30))
        try connection.transition(to: .offline)

        #expect(connection == .offline)
    }

    @Test("An allowed change takes effect")
    func allowedTransition() throws {
        var mode = EditorMode.browsing

        try mode.transition(to: .editing(itemID: 3))
        try mode.transition(to: .saving)

        #expect(mode == .saving)
    }

    @Test("A forbidden change throws, naming both values, and leaves the value as it was")
    func forbiddenTransition() {
        var mode = EditorMode.saving

        #expect(throws: StateError.forbiddenTransition(from: "saving", to: "editing(itemID: 4)")) {
            try mode.transition(to: .editing(itemID: 4))
        }
        #expect(mode == .saving)
    }

    @Test("Equality and hashing include associated values, so undo history sees data changes")
    func equalityIncludesData() {
        #expect(EditorMode.editing(itemID: 1) != .editing(itemID: 2))
        #expect(Set([EditorMode.editing(itemID: 1), .editing(itemID: 2), .editing(itemID: 1)]).count == 2)

        var before = EditorState()
        before.mode = .editing(itemID: 1)
        var after = before
        after.mode = .editing(itemID: 2)
        #expect(before != after)
    }

    @Test("A Codable discrete state survives a round trip inside its enclosing value")
    func codableRoundTrip() throws {
        var state = EditorState()
        state.items = ["milk"]
        state.mode = .editing(itemID: 0)

        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(EditorState.self, from: data)

        #expect(decoded == state)
    }

    @Test("A discrete state can be sent to another task")
    func sendable() async throws {
        let mode = EditorMode.editing(itemID: 8)

        let next = try await Task.detached {
            var copy = mode
            try copy.transition(to: .saving)
            return copy
        }.value

        #expect(mode == .editing(itemID: 8))
        #expect(next == .saving)
    }
}
