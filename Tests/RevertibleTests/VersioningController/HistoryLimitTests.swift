import Revertible
import Testing

/// Lowering the history limit on a history with many abandoned branches: what is dropped, and
/// in which order. (Dropping k of n steps is one pass, O(n + k log n); that is not timed here.)
@Suite("History limit on a branchy history")
struct HistoryLimitTests {

    /// 2,000 changes, every other one made after an undo: 1,000 steps on the path to the
    /// present and 1,000 abandoned leaves beside it.
    private func branchyController() throws -> (VersioningController<[Int], [Int], HistoryError>, path: [HistoryVersion], abandoned: [HistoryVersion]) {
        let controller = VersioningController([Int]())
        var value: [Int] = []
        for index in 0..<2_000 {
            if index % 2 == 1 { value = try controller.undo() }
            value.append(index)
            controller.append(value)
        }
        let path = controller.steps().undo.map(\.version)
        let onPath = Set(path)
        let abandoned = controller.tree().map(\.version).filter { !onPath.contains($0) }.sorted()
        return (controller, path, abandoned)
    }

    @Test("Abandoned leaves go first, oldest first; the path is kept while they last")
    func abandonedLeavesFirst() throws {
        let (controller, path, abandoned) = try branchyController()
        #expect(path.count == 1_000 && abandoned.count == 1_000)
        let present = controller.currentVersion
        controller.historyLimit = 1_200
        let kept = Set(controller.tree().map(\.version))
        #expect(kept.count == 1_200)
        #expect(kept.isSuperset(of: path))
        #expect(kept.subtracting(path) == Set(abandoned.suffix(200)))
        #expect(controller.currentVersion == present)
    }

    @Test("Past the abandoned leaves, the oldest steps on the path go, and undo stops there")
    func thenThePath() throws {
        let (controller, path, _) = try branchyController()
        controller.historyLimit = 600
        #expect(controller.tree().map(\.version).sorted() == Array(path.suffix(600)))
        #expect(controller.undoCount == 600)
        for _ in 0..<600 { _ = try controller.undo() }
        // Each kept change replaced an even number by the odd one after it: the oldest version
        // left holds the first 400 odd numbers.
        #expect(controller.currentVersion == (0..<400).map { $0 * 2 + 1 })
        #expect(!controller.hasUndo)
    }
}
