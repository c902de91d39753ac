import Testing
import Revertible

/// Many tasks misusing one controller at once (appends of stale versions, undos, redos,
/// scopes, tags, transactions racing each other) never crash it or break its history: every
/// step still leads from one recorded version to the next.
///
/// Run under ThreadSanitizer with
/// `swift test --scratch-path .build-tsan --sanitize=thread --filter Concurrency`.
@Suite("Reliability: concurrent misuse never corrupts the history (Concurrency)")
struct ConcurrencyReliabilityTests {

    static let tasks = 8
    static let operationsPerTask = 150

    @Test("Racing operations on a direct controller leave a history that undoes to the start", arguments: [UInt64](1...3))
    func direct(seed: UInt64) async throws {
        var factory = BoardFactory(seed: seed)
        let initial = factory.board()
        let controller = VersioningController(initial)
        await race(on: controller, seed: seed) { controller.append($0) }
        try expectIntactHistory(controller, startingAt: initial)
    }

    @Test("Racing operations through a value root leave a history that undoes to the start", arguments: [UInt64](4...6))
    func valueKeyPath(seed: UInt64) async throws {
        var factory = BoardFactory(seed: seed)
        let initial = BoardHolder(board: factory.board())
        let controller = VersioningController(on: initial, at: \.board)
        await race(on: controller, seed: seed) { board in
            var holder = initial
            holder.board = board
            holder.unrelated = Int(seed)
            controller.append(root: holder)
        }
        try expectIntactHistory(controller, startingAt: initial.board)
    }

    @Test("With limits and clears racing too, the history still goes back and forth between its ends")
    func limitsAndClears() async throws {
        var factory = BoardFactory(seed: 9)
        let controller = VersioningController(factory.board())
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<60 {
                    controller.historyLimit = [nil, 0, 2, 5][round % 4]
                    if round % 15 == 0 { controller.removeAllVersions() }
                    await Task.yield()
                }
                controller.historyLimit = 4
            }
            group.addTask { await race(on: controller, seed: 9) { controller.append($0) } }
        }
        while controller.scopeLevel > 0 {
            try controller.popCurrentScope()
        }
        #expect(controller.undoCount <= 4)
        let end = controller.currentVersion
        let undone = controller.undoCount
        let start = try controller.undo(to: .steps(undone))
        try controller.redo(to: .steps(undone))
        #expect(controller.currentVersion == end)
        try controller.redo(to: .steps(controller.redoCount))
        try controller.undo(to: .steps(controller.undoCount))
        #expect(controller.currentVersion == start)
    }

    /// `tasks` tasks, each doing a seeded random mix of every operation; `append` records a
    /// new version the way the mode does.
    private func race<Root: Sendable>(
        on controller: VersioningController<Root, Board, HistoryError>,
        seed: UInt64,
        append: @escaping @Sendable (Board) -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    var factory = BoardFactory(seed: seed &* 1_000 &+ UInt64(task), firstID: (task + 1) * 1_000_000)
                    for _ in 0..<Self.operationsPerTask {
                        let tag = TestTag.pool.randomElement(using: &factory.random)!.value
                        switch Int.random(in: 0..<16, using: &factory.random) {
                        case 0...3: append(factory.edit(controller.currentVersion))
                        case 4: append(controller.currentVersion)
                        case 5: _ = try? controller.undo()
                        case 6: _ = try? controller.redo()
                        case 7: _ = try? controller.undo(to: .steps(Int.random(in: 0...3, using: &factory.random)))
                        case 8: _ = try? controller.redo(to: .steps(Int.random(in: 0...3, using: &factory.random)))
                        case 9: controller.tag(tag)
                        case 10: _ = try? controller.undo(to: .tag(HistoryTag(tag)))
                        case 11: _ = try? controller.redo(to: .tag(HistoryTag(tag)))
                        case 12: controller.pushNewScope()
                        case 13: try? controller.popCurrentScope()
                        case 14: _ = try? controller.undoAndPopCurrentScope()
                        default:
                            var edits = factory
                            controller.setWithTransaction { board in board = edits.edit(edits.edit(board)) }
                            factory.random = edits.random
                        }
                        _ = (controller.hasUndo, controller.tags(inScopeLevel: controller.scopeLevel), controller.redoCount)
                    }
                }
            }
        }
    }

    /// Tags are unique (a scope's start is the version of the scope below it was pushed on, so
    /// its tag shows in both); popping every scope and undoing everything gets back to the start;
    /// redoing as many steps gets back to the end; redoing everything and undoing everything
    /// again gets back to the start again.
    private func expectIntactHistory<Root>(
        _ controller: VersioningController<Root, Board, HistoryError>,
        startingAt initial: Board
    ) throws {
        let tags = (0...controller.scopeLevel).flatMap { level in
            let tags = controller.tags(inScopeLevel: level)!
            let below = level > 0 ? controller.tags(inScopeLevel: level - 1)!.undo.last! : nil
            let versions = level > 0 && tags.undo[0] == below ? Array(tags.undo.dropFirst()) : tags.undo
            return (versions + tags.redo).compactMap { $0 }
        }
        #expect(Set(tags).count == tags.count, "a tag names more than one version: \(tags)")

        while controller.scopeLevel > 0 {
            try controller.popCurrentScope()
        }
        let end = controller.currentVersion
        let undone = controller.undoCount
        try controller.undo(to: .steps(undone))
        #expect(controller.currentVersion == initial)
        #expect(!controller.hasUndo)
        try controller.redo(to: .steps(undone))
        #expect(controller.currentVersion == end)
        // Then the steps that were already ahead when the race ended.
        try controller.redo(to: .steps(controller.redoCount))
        try controller.undo(to: .steps(controller.undoCount))
        #expect(controller.currentVersion == initial)
    }
}
