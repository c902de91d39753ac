import Testing
import Revertible
import TestSupport

@Test func tmpDebug() throws {
    var factory = BoardFactory(seed: 67)
    var board = factory.board()
    let clock = TestClock()
    let controller = VersioningController(board)
    controller.withDebouncing(clock: clock, interval: .seconds(1))
    var model = ReferenceHistory(board: board)
    var boards = [board]
    for (i, seed) in [UInt64(2883716337670045648), 17370569485091738177, 293384471311358967].enumerated() {
        clock.advance(by: .seconds(10))
        board = BoardEdit(seed: seed, firstID: (i + 1) * 10000).applied(to: board)
        boards.append(board)
        controller.append(board); model.record(board)
    }
    _ = try? controller.popCurrentScope(); model.popScope()
    for (i, seed) in [UInt64(18356456884696236283), 8580016170484729327].enumerated() {
        clock.advance(by: .milliseconds(10))
        board = BoardEdit(seed: seed, firstID: (i + 5) * 10000).applied(to: board)
        controller.append(board); model.record(board, grouped: true)
        print("after grouped", controller.undoCount, model.undoCount, controller.currentVersionID, model.currentID, controller.tree().map(\.version), controller.tree().map(\.parent))
    }
    try controller.undo(&board); model.undo()
    print("undo1", board == model.current, board == boards[3], controller.currentVersionID, model.currentID)
    print("names", Array(board.name.utf8), Array(boards[3].name.utf8), Array(controller.currentVersion.name.utf8))
    print("steps", controller.tree().map(\.changeCount))
    try controller.undo(&board); model.undo()
    print("undo2", board == model.current, board == boards[2], model.current == boards[2], controller.currentVersionID, model.currentID)
}
