import Testing
import Revertible

/// Moving where there is nothing to move to, popping the outermost scope, unknown tags, tags
/// of other scopes, odd counts and limits: each is a no-op, never a crash or an error.
@Suite("Reliability: misuse of an empty history is a no-op")
struct EmptyHistoryMisuseReliabilityTests {

    @Test("Every move on an empty history changes nothing", arguments: TrackingMode.allCases)
    func emptyHistory(mode: TrackingMode) throws {
        var factory = BoardFactory(seed: 3)
        let board = factory.board()
        let client = mode.makeClient(tracking: board)
        try everyMove(on: client)
        expectUntouched(client, board: board, scopeLevel: 0)
    }

    @Test("Every move at the edges of an inner scope stays in it and changes nothing", arguments: TrackingMode.allCases)
    func edgesOfAScope(mode: TrackingMode) throws {
        var factory = BoardFactory(seed: 4)
        let client = mode.makeClient(tracking: factory.board())
        client.append(factory.edit(client.board), tag: .text("outside"))
        client.pushNewScope()
        let board = client.board
        try everyMove(on: client)
        expectUntouched(client, board: board, scopeLevel: 1)
        try client.undo(to: .text("outside"))
        #expect(client.board == board, "a tag of another scope is unknown here")
    }

    @Test("Odd counts, levels and limits are accepted", arguments: TrackingMode.allCases)
    func oddArguments(mode: TrackingMode) throws {
        var factory = BoardFactory(seed: 5)
        let client = mode.makeClient(tracking: factory.board())
        client.append(factory.edit(client.board))
        try oddArguments(client)
    }

    private func oddArguments(_ client: some ControllerClient) throws {
        let board = client.board
        let controller = client.controller
        try client.undo(to: .steps(-1))
        try client.redo(to: .steps(-1))
        try client.undo(to: .steps(0))
        #expect(client.board == board && controller.undoCount == 1)
        #expect(controller.tags(inScopeLevel: -1) == ([], []) as ([AnyHashable?], [AnyHashable?]))
        #expect(controller.tags(inScopeLevel: Int.max).undo.isEmpty)
        controller.historyLimit = -3
        #expect(controller.undoCount == 0 && client.board == board)
        controller.historyLimit = nil
        controller.removeAllVersions()
        controller.removeAllVersions()
        expectUntouched(client, board: board, scopeLevel: 0)
    }

    private func everyMove(on client: some ControllerClient) throws {
        try client.undo()
        try client.redo()
        try client.undo(to: .steps(3))
        try client.redo(to: .steps(.max))
        try client.undo(to: HistoryTag.unknown)
        try client.redo(to: HistoryTag.unknown)
        try client.undo(to: .number(1))
        try client.undoCurrentScope()
        try client.redoCurrentScope()
        if client.controller.scopeLevel == 0 {
            try client.popCurrentScope()
            try client.undoAndPopCurrentScope()
        }
        client.append(client.board)
    }

    private func expectUntouched(_ client: some ControllerClient, board: Board, scopeLevel: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let controller = client.controller
        #expect(client.board == board, sourceLocation: sourceLocation)
        #expect(controller.currentVersion == board, sourceLocation: sourceLocation)
        #expect(controller.scopeLevel == scopeLevel, sourceLocation: sourceLocation)
        #expect(!controller.hasUndo && !controller.hasRedo, sourceLocation: sourceLocation)
        #expect(controller.undoCount == 0 && controller.redoCount == 0, sourceLocation: sourceLocation)
        #expect(controller.error == nil, sourceLocation: sourceLocation)
    }
}
