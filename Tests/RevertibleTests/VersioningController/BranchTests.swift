import Revertible
import Testing

/// A change after an undo starts a branch; the branch it left stays reachable. Plain undo and
/// redo behave as before: redo follows the branch visited or made last.
@Suite("Branches: a tree of versions, nothing lost")
struct BranchTests {

    /// `a`, `b`, `c`, then undo twice and `x`: the tree `a ─ b ─ c` and `a ─ x`.
    private func branched() throws -> (VersioningController<String, String, HistoryError>, c: HistoryVersion) {
        let controller = VersioningController("")
        controller.append("a")
        controller.append("b")
        controller.append("c")
        let c = controller.currentVersionID
        try controller.undo(to: .steps(2))
        controller.append("x")
        return (controller, c)
    }

    @Test("A change after an undo keeps the branch it left; undo and redo walk the new one")
    func newBranchKeepsOldOne() throws {
        let (controller, c) = try branched()
        #expect(controller.undoCount == 2 && controller.redoCount == 0)
        #expect(try controller.undo() == "a")
        #expect(controller.branches(from: controller.currentVersionID).map(\.version).last == controller.tree().last?.version)
        #expect(controller.branches(from: controller.currentVersionID).count == 2)
        #expect(try controller.redo() == "x", "redo follows the branch made last")
        #expect(try controller.move(to: .version(c)) == "c", "the old branch is still there")
        #expect(controller.undoCount == 3 && controller.redoCount == 0)
        #expect(try controller.undo(to: .steps(2)) == "a")
        #expect(try controller.redo() == "b", "redo follows the branch visited last")
    }

    @Test("A tag on the branch left is reachable by a move, not by undo or redo")
    func tagOnAnotherBranch() throws {
        let controller = VersioningController("")
        controller.append("a")
        controller.append("b", tag: "old")
        try controller.undo()
        controller.append("x")
        #expect(controller.location(of: "old") == .onAnotherBranch)
        #expect(throws: HistoryError.tagOutOfReach("old", .onAnotherBranch)) { try controller.undo(to: "old") }
        #expect(try controller.move(to: .tag("old")) == "b")
        #expect(controller.location(of: "old") == .present)
    }

    @Test("Moves in the order versions were made, and by time")
    func chronologicalMoves() throws {
        let clock = TestClock()
        let controller = VersioningController("", clock: clock)
        for text in ["a", "b", "c"] {
            clock.advance(by: .seconds(60))
            controller.append(text)
        }
        try controller.undo(to: .steps(2))
        clock.advance(by: .seconds(60))
        controller.append("x")
        #expect(try controller.move(to: .earlier(1)) == "c", "the version made before x, on the other branch")
        #expect(try controller.move(to: .later(1)) == "x")
        #expect(try controller.move(to: .earlier(by: .seconds(120))) == "b", "made at 2 minutes, x at 4")
        #expect(try controller.move(to: .earlier(9)) == "", "past the oldest version: stops there")
        #expect(try controller.move(to: .later(9)) == "x", "past the newest version: stops there")
    }

    @Test("A move that meets a wrong version changes nothing")
    func moveIsAllOrNothing() throws {
        var (controller, c) = try branched()
        _ = c
        var value = controller.currentVersion
        controller.setWithoutTracking("untracked")
        value = "untracked"
        controller.conflictPolicy = .refuse
        #expect { try controller.move(&value, to: .version(c)) } throws: { ($0 as? HistoryError)?.isConflict == true }
        #expect(value == "untracked" && controller.currentVersion == "untracked" && controller.undoCount == 2)
        controller = VersioningController("")
        #expect(throws: HistoryError.unknownVersion(c)) { try controller.move(to: .version(c)) }
    }

    @Test("A version outside the current scope is out of reach; popping squashes the scope's branches")
    func scopes() throws {
        let controller = VersioningController("")
        controller.append("a")
        let a = controller.currentVersionID
        controller.append("b")
        controller.pushNewScope()
        controller.append("c")
        try controller.undo()
        controller.append("d")
        #expect(controller.tree().count == 2)
        #expect(throws: HistoryError.versionOutOfReach(a)) { try controller.move(to: .version(a)) }
        try controller.popCurrentScope()
        #expect(controller.tree().count == 3 && controller.undoCount == 3 && controller.currentVersion == "d")
        #expect(try controller.undo() == "b")
    }

    @Test("The limit drops abandoned branches first, then the oldest steps on the path")
    func limitPrunesBranchesFirst() throws {
        let controller = VersioningController("", historyLimit: 3)
        controller.append("a")
        controller.append("b")
        controller.append("c")
        try controller.undo(to: .steps(2))
        controller.append("x")
        #expect(controller.tree().count == 3, "c went first: it was off the path to the present")
        #expect(controller.undoCount == 2)
        controller.append("y")
        #expect(controller.tree().count == 3 && controller.undoCount == 3, "then b, off the path too")
        controller.append("z")
        #expect(controller.tree().count == 3 && controller.undoCount == 3)
        #expect(try controller.undo(to: .steps(3)) == "a", "then a's step: a is where undo stops now")
    }

    /// Found by fuzz-history-archive: `.later(Int.max)` overflowed computing the index it
    /// names (a crash); `.earlier(Int.min)` would too. A count past either end stops there; a
    /// negative count is refused, and changes nothing.
    @Test("Moves by extreme counts and durations are refused or clamped, never a crash")
    func extremeMoves() throws {
        let (controller, _) = try branched()
        #expect(try controller.move(to: .later(.max)) == "x")
        #expect(try controller.move(to: .earlier(.max)) == "")
        #expect(try controller.move(to: .later(.max)) == "x")
        #expect(throws: HistoryError.self) { try controller.move(to: .later(.min)) }
        #expect(throws: HistoryError.self) { try controller.move(to: .earlier(.min)) }
        #expect(throws: HistoryError.self) { try controller.undo(to: .steps(.min)) }
        #expect(throws: HistoryError.self) { try controller.redo(to: .steps(.min)) }
        #expect(controller.currentVersion == "x")
        #expect(try controller.move(to: .earlier(by: Duration(secondsComponent: .max, attosecondsComponent: 0))) == "")
        #expect(try controller.move(to: .later(by: Duration(secondsComponent: .max, attosecondsComponent: 0))) == "x")
        #expect(try controller.move(to: .earlier(by: Duration(secondsComponent: .min, attosecondsComponent: 0))) == "x")
        #expect(try controller.move(to: .later(by: Duration(secondsComponent: .min, attosecondsComponent: 0))) == "x")
    }
}
