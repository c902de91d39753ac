import Testing
import Revertible

/// Moving where there is nothing to move to, popping the outermost scope, unknown tags, tags
/// of other scopes, odd counts and limits: each is refused with the reason (or, for one step
/// with nothing there, does nothing), never a crash, and changes nothing.
@Suite("Reliability: misuse of an empty history is refused and changes nothing")
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
        #expect(client.location(of: "outside") == .present, "the scope starts on the tagged version")
        try client.undo(to: .text("outside"))
        #expect(client.board == board)
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
        #expect(throws: HistoryError.stepsOutOfRange(requested: -1, available: 1)) { try client.undo(steps: -1) }
        #expect(throws: HistoryError.stepsOutOfRange(requested: -1, available: 0)) { try client.redo(steps: -1) }
        try client.undo(steps: 0)
        #expect(client.board == board && controller.undoCount == 1)
        #expect(controller.tags(inScopeLevel: -1) == nil)
        #expect(controller.tags(inScopeLevel: Int.max) == nil)
        controller.historyLimit = -3
        #expect(controller.undoCount == 0 && client.board == board)
        controller.historyLimit = nil
        controller.removeAllVersions()
        controller.removeAllVersions()
        expectUntouched(client, board: board, scopeLevel: 0)
    }

    /// Every move, each either doing nothing (one step with none there, a whole empty scope)
    /// or refused with its reason.
    private func everyMove(on client: some ControllerClient, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try client.undo()
        try client.redo()
        #expect(throws: HistoryError.stepsOutOfRange(requested: 3, available: 0), sourceLocation: sourceLocation) { try client.undo(steps: 3) }
        #expect(throws: HistoryError.stepsOutOfRange(requested: .max, available: 0), sourceLocation: sourceLocation) { try client.redo(steps: .max) }
        #expect(throws: HistoryError.unknownTag(HistoryTag(TestTag.unknown.value)), sourceLocation: sourceLocation) { try client.undo(to: TestTag.unknown) }
        #expect(throws: HistoryError.unknownTag(HistoryTag(TestTag.unknown.value)), sourceLocation: sourceLocation) { try client.redo(to: TestTag.unknown) }
        #expect(throws: HistoryError.unknownTag(HistoryTag(1)), sourceLocation: sourceLocation) { try client.undo(to: .number(1)) }
        try client.undoCurrentScope()
        try client.redoCurrentScope()
        if client.controller.scopeLevel == 0 {
            #expect(throws: HistoryError.noScopeToPop, sourceLocation: sourceLocation) { try client.popCurrentScope() }
            #expect(throws: HistoryError.noScopeToPop, sourceLocation: sourceLocation) { try client.undoAndPopCurrentScope() }
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
    }
}
