import Foundation
import Testing
@testable import Revertible

/// A reversion applied to a version other than the one it was made from, at a location it
/// writes, throws `attemptingToRevertWrongVersion` and changes nothing: not the value, and, in
/// a controller refusing conflicts (`ConflictPolicy.refuse`), not the history either. Since
/// issue 24 a controller's undo is selective: a change elsewhere in an identified collection
/// is no conflict, so there the move applies, and redo takes it back exactly.
@Suite("Reliability: wrong versions are rejected and change nothing")
struct WrongVersionReliabilityTests {

    @Test("Reversions, undoing and redoing, reject random boards changed where they write", arguments: [UInt64](1...150))
    func reversionsRejectWrongVersions(seed: UInt64) throws {
        var factory = BoardFactory(seed: seed)
        let older = factory.board()
        var newer = older
        for _ in 0...Int.random(in: 0...2, using: &factory.random) { newer = factory.edit(newer) }
        guard let reversion = newer.reversion(to: older), let forward = older.reversion(to: newer) else { return }

        let undoing = WrongVersions(of: newer, at: reversion.changedKeyPaths)
        let redoing = WrongVersions(of: older, at: forward.changedKeyPaths)
        #expect(undoing.unknownLocations.isEmpty && redoing.unknownLocations.isEmpty, "seed \(seed)")
        #expect(!undoing.versions.isEmpty, "seed \(seed): no wrong version made")
        for (wrong, change) in undoing.versions {
            expectRejected(wrong, "undo, seed \(seed), \(change)") { try reversion.revert(&$0) }
        }
        for (wrong, change) in redoing.versions {
            expectRejected(wrong, "redo, seed \(seed), \(change)") { try reversion.inverted.revert(&$0) }
        }
        // Still applies to the right versions.
        var value = newer
        try reversion.revert(&value)
        #expect(value == older)
        try reversion.inverted.revert(&value)
        #expect(value == newer)
    }

    @Test("A controller's undo and redo reject a current version changed where they write", arguments: TrackingMode.recordingOnRequest)
    func controllerRejectsWrongVersions(mode: TrackingMode) throws {
        for seed in UInt64(1)...25 {
            var factory = BoardFactory(seed: seed)
            let client = mode.makeClient(tracking: factory.board())
            var versions = [client.board]
            for _ in 0..<Int.random(in: 1...4, using: &factory.random) {
                versions.append(factory.edit(versions.last!))
                client.append(versions.last!)
            }
            guard versions.count >= 2, versions.last != versions[versions.count - 2] else { continue }
            let (previous, current) = (versions[versions.count - 2], versions.last!)

            let undoPaths = current.reversion(to: previous)!.changedKeyPaths
            for (wrong, change) in WrongVersions(of: current, at: undoPaths).versions {
                try expectRefusedOrSelective(client, on: wrong, "undo, seed \(seed), \(change)", { try client.undo() }, back: { try client.redo() })
                reset(client, to: current)
            }
            try client.undo()
            #expect(client.board == previous, "the history survived, seed \(seed)")

            let redoPaths = previous.reversion(to: current)!.changedKeyPaths
            for (wrong, change) in WrongVersions(of: previous, at: redoPaths).versions {
                try expectRefusedOrSelective(client, on: wrong, "redo, seed \(seed), \(change)", { try client.redo() }, back: { try client.undo() })
                reset(client, to: previous)
            }
            try client.redo()
            #expect(client.board == current, "the history survived, seed \(seed)")
        }
    }

    /// Three versions: `name` changes, then `body`. A multi-step move that reaches a wrong
    /// version at its second step must not keep its first.
    @Test("A move of several steps that meets a wrong version changes nothing", arguments: TrackingMode.recordingOnRequest)
    func multiStepMovesAreAllOrNothing(mode: TrackingMode) throws {
        var factory = BoardFactory(seed: 7)
        let start = factory.board()
        var renamed = start
        renamed.name += " renamed"
        var rewritten = renamed
        rewritten.body += " rewritten"

        var wrongForUndo = rewritten
        wrongForUndo.name += "†"
        var wrongForRedo = start
        wrongForRedo.body += "†"

        let undoMoves: [(String, (any ControllerClient) throws -> Void)] = [
            ("undo(steps:)", { try $0.undo(steps: 2) }),
            ("undo(to:)", { try $0.undo(to: .text("start")) }),
            ("undoCurrentScope", { try $0.undoCurrentScope() }),
        ]
        for (name, move) in undoMoves {
            let client = mode.makeClient(tracking: start)
            client.pushNewScope()
            client.tag(.text("start"))
            client.append(renamed)
            client.append(rewritten)
            try expectNothingChanges(client, on: wrongForUndo, name) { try move(client) }
            reset(client, to: rewritten)
            try move(client)
            #expect(client.board == start, "\(name) works once the version is right")
        }

        // Abandoning a scope cannot jam (issue 29: a loop that ends scopes must end; issue 24:
        // undo is selective): the steps are undone where they apply, and the location another
        // writer changed (`name`) keeps that writer's value.
        try abandonEndsTheScope(mode.makeClient(tracking: start), start: start, renamed: renamed, rewritten: rewritten, wrong: wrongForUndo)

        let redoMoves: [(String, (any ControllerClient) throws -> Void)] = [
            ("redo(steps:)", { try $0.redo(steps: 2) }),
            ("redo(to:)", { try $0.redo(to: .text("end")) }),
            ("redoCurrentScope", { try $0.redoCurrentScope() }),
        ]
        for (name, move) in redoMoves {
            let client = mode.makeClient(tracking: start)
            client.append(renamed)
            client.append(rewritten, tag: .text("end"))
            try client.undo(steps: 2)
            try expectNothingChanges(client, on: wrongForRedo, name) { try move(client) }
            reset(client, to: start)
            try move(client)
            #expect(client.board == rewritten, "\(name) works once the version is right")
        }
    }

    // MARK: Helpers

    private func expectRejected(_ wrong: Board, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation, _ revert: (inout Board) throws -> Void) {
        var value = wrong
        #expect(throws: ReversionError.attemptingToRevertWrongVersion, "\(comment)", sourceLocation: sourceLocation) { try revert(&value) }
        #expect(value == wrong, "changed by a failed revert: \(comment)", sourceLocation: sourceLocation)
    }

    /// Makes `wrong` the current version without recording it, runs `operation`, and expects
    /// it to throw and leave the value and everything observable about the history as it was.
    private func abandonEndsTheScope(_ client: some ControllerClient, start: Board, renamed: Board, rewritten: Board, wrong: Board) throws {
        client.pushNewScope()
        client.tag(.text("start"))
        client.append(renamed)
        client.append(rewritten)
        reset(client, to: wrong)
        try client.undoAndPopCurrentScope()
        #expect(client.controller.lastConflicts.map(\.location) == ["\\Board.name"])
        #expect(client.controller.scopeLevel == 0)
        #expect(client.board.body == start.body && client.board.name == wrong.name)
        #expect(client.controller.currentVersion == client.board)
        #expect(!client.controller.hasUndo)
    }

    private func expectNothingChanges(
        _ client: some ControllerClient,
        on wrong: Board,
        _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: () throws -> Void
    ) throws {
        reset(client, to: wrong)
        let controller = client.controller
        controller.conflictPolicy = .refuse
        defer { controller.conflictPolicy = .skip }
        let before = Observed(controller)
        #expect(sourceLocation: sourceLocation) { try operation() } throws: { ($0 as? HistoryError)?.isConflict == true }
        #expect(client.board == wrong, "the client's value changed: \(comment)", sourceLocation: sourceLocation)
        #expect(controller.currentVersion == wrong, "the current version changed: \(comment)", sourceLocation: sourceLocation)
        #expect(Observed(controller) == before, "the history changed: \(comment)", sourceLocation: sourceLocation)
        #expect(controller.error?.isConflict == true, "\(comment)", sourceLocation: sourceLocation)
    }

    /// Makes `wrong` the current version without recording it and runs `operation` under
    /// `ConflictPolicy.refuse`: either it refuses (a conflict) and changes nothing, or the
    /// other writer's change is no conflict (elsewhere in an identified collection, say), and
    /// then `back` (the opposite move) returns exactly to `wrong`.
    private func expectRefusedOrSelective(
        _ client: some ControllerClient,
        on wrong: Board,
        _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ operation: () throws -> Void,
        back: () throws -> Void
    ) throws {
        reset(client, to: wrong)
        let controller = client.controller
        controller.conflictPolicy = .refuse
        defer { controller.conflictPolicy = .skip }
        let before = Observed(controller)
        do {
            try operation()
        } catch {
            #expect((error as? HistoryError)?.isConflict == true, "\(comment)", sourceLocation: sourceLocation)
            #expect(client.board == wrong, "the client's value changed: \(comment)", sourceLocation: sourceLocation)
            #expect(controller.currentVersion == wrong, "the current version changed: \(comment)", sourceLocation: sourceLocation)
            #expect(Observed(controller) == before, "the history changed: \(comment)", sourceLocation: sourceLocation)
            return
        }
        #expect(controller.lastConflicts.isEmpty, "\(comment)", sourceLocation: sourceLocation)
        try back()
        #expect(client.board == wrong, "the move back did not return: \(comment)", sourceLocation: sourceLocation)
        #expect(Observed(controller) == before, "the history changed: \(comment)", sourceLocation: sourceLocation)
    }

    /// Puts `board` in the client's hands and makes it the controller's current version,
    /// recording nothing.
    private func reset(_ client: some ControllerClient, to board: Board) {
        client.editWithoutAppending(board)
        client.controller.setWithoutTracking(board)
    }
}

/// Everything observable about a controller's history, but its current version.
struct Observed<Root>: Equatable {
    let scopeLevel: Int
    let undoCount: Int
    let redoCount: Int
    let tags: [[HistoryTag?]]

    init(_ controller: VersioningController<Root, Board, HistoryError>) {
        scopeLevel = controller.scopeLevel
        undoCount = controller.undoCount
        redoCount = controller.redoCount
        tags = (0...scopeLevel).flatMap { level in
            let tags = controller.tags(inScopeLevel: level)!
            return [tags.undo, tags.redo]
        }
    }
}
