import Foundation
import Revertible
import Testing
import TestSupport

/// A history opened over a ``HistoryStepStore`` reads its outline and the steps a command
/// crosses, no more, and checks each step where it reads it.
@Suite("A history over a step store")
struct HistoryStepStoreTests {

    /// A controller with `count` appended steps, saved to a new store of encoded steps.
    private func saved(_ count: Int) throws -> (controller: VersioningController<Int, Int, HistoryError>, store: EncodedHistoryStepStore<Int>) {
        let controller = VersioningController(0)
        for value in 1...count { controller.append(value) }
        let store = EncodedHistoryStepStore<Int>()
        try controller.saveHistory(to: store)
        return (controller, store)
    }

    @Test("Opening and undoing one step read the same few steps, whatever the length")
    func readsDoNotGrowWithLength() throws {
        var readsByLength: [Int: [Int]] = [:]
        for length in [10, 1_000, 5_000] {
            let (_, store) = try saved(length)
            let opened = VersioningController(length)
            try opened.openHistory(from: store)
            let afterOpening = store.stepReads
            #expect(opened.undoCount == length)
            try opened.undo()
            #expect(opened.currentVersion == length - 1)
            let afterUndo = store.stepReads
            opened.append(-1)
            try opened.undo()
            try opened.redo()
            readsByLength[length] = [afterOpening, afterUndo, store.stepReads]
        }
        #expect(readsByLength[10] == readsByLength[5_000], "\(readsByLength)")
        #expect(readsByLength[1_000] == readsByLength[5_000], "\(readsByLength)")
        #expect(readsByLength[5_000]!.last! <= 4, "\(readsByLength)")
    }

    @Test("At the limit, a change after an undo drops the undone branch reading that branch, not the whole history")
    func limitDropsABranchReadingTheBranch() throws {
        var readsByLength: [Int: Int] = [:]
        for length in [100, 1_000, 5_000] {
            let (controller, store) = try saved(length)
            controller.historyLimit = length
            let opened = VersioningController(length)
            opened.historyLimit = length
            try opened.openHistory(from: store)
            let before = store.stepReads
            // Undo two, change, then undo one and change again: each change goes over the
            // limit with a branch off the path (the undone steps), which the limit drops first.
            for history in [controller, opened] {
                try history.undo(to: .steps(2))
                history.append(-1)
                try history.undo()
                history.append(-2)
            }
            readsByLength[length] = store.stepReads - before
            // What the lazily read history dropped is what the one kept whole dropped.
            #expect(opened.undoCount == controller.undoCount)
            #expect(opened.redoCount == controller.redoCount)
            try opened.saveHistory(to: store)
            let lazy = try #require(try store.wholeArchive()?.validated(present: -2))
            let whole = try #require(HistoryArchive(controller.archive).validated(present: -2))
            #expect(lazy.steps.map(\.version) == whole.steps.map(\.version))
            try opened.undo(to: .steps(opened.undoCount))
            try controller.undo(to: .steps(controller.undoCount))
            #expect(opened.currentVersion == controller.currentVersion)
        }
        #expect(readsByLength[100] == readsByLength[5_000], "\(readsByLength)")
        #expect(readsByLength[1_000] == readsByLength[5_000], "\(readsByLength)")
        #expect(readsByLength[5_000]! <= 10, "\(readsByLength)")
    }

    @Test("Saved after every change, as an app that saves as it goes: the next change reads nothing back from the store")
    func savingAsItGoesReadsNothingBack() throws {
        let (controller, store) = try saved(100)
        let before = (steps: store.stepReads, lists: store.childListReads)
        for value in 101...200 {
            controller.append(value)
            try controller.saveHistory(to: store)
        }
        #expect(store.stepReads == before.steps)
        #expect(store.childListReads == before.lists)
        // An undo reads what it crosses; the change after it, made on a branch, goes on from
        // there and is saved like any other.
        try controller.undo(to: .steps(2))
        controller.append(-1)
        try controller.saveHistory(to: store)
        controller.append(-2)
        try controller.saveHistory(to: store)
        // The history so saved is the one a controller kept whole makes.
        let whole = VersioningController(0)
        for value in 1...200 { whole.append(value) }
        try whole.undo(to: .steps(2))
        whole.append(-1)
        whole.append(-2)
        let reopened = VersioningController(-2)
        try reopened.openHistory(from: store)
        #expect(reopened.undoCount == whole.undoCount)
        #expect(reopened.redoCount == whole.redoCount)
        let lazy = try #require(try store.wholeArchive()?.validated(present: -2))
        let kept = try #require(HistoryArchive(whole.archive).validated(present: -2))
        #expect(lazy.steps.map(\.version) == kept.steps.map(\.version))
        #expect(lazy.steps.map(\.parent) == kept.steps.map(\.parent))
        try reopened.undo(to: .steps(reopened.undoCount))
        #expect(reopened.currentVersion == 0)
    }

    @Test("Saving writes only what changed, and a reopened history goes on where it was")
    func savingWritesTheChanges() throws {
        let (controller, store) = try saved(300)
        try controller.openHistory(from: store)
        try controller.undo(to: .steps(3))
        controller.append(1_000)
        controller.tag("after")
        try controller.saveHistory(to: store)
        #expect(store.stepCount == 301)
        let reopened = VersioningController(controller.currentVersion)
        try reopened.openHistory(from: store)
        #expect(reopened.undoCount == controller.undoCount)
        #expect(reopened.currentVersionTags == ["after"])
        try reopened.undo(to: .steps(reopened.undoCount))
        #expect(reopened.currentVersion == 0)
        try reopened.move(to: .version(HistoryVersion(300)))
        #expect(reopened.currentVersion == 300)
        // The whole archive read through the store is the one kept in memory.
        let whole = try #require(HistoryArchive(controller.archive).validated(present: controller.currentVersion))
        #expect(whole.steps.count == 301)
    }

    @Test("A damaged step far from the present is refused when a move reaches it, and nothing changes")
    func damageFoundWhereRead() throws {
        let (_, store) = try saved(300)
        // Its change count, which the checksum covers.
        store.damage(HistoryVersion(150)) { bytes in
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""count":1"#, with: #""count":2"#)
            return Data(text.utf8)
        }
        let rows = store.snapshot
        let controller = VersioningController(300)
        try controller.openHistory(from: store)
        for _ in 0..<50 {
            try controller.undo(to: .steps(100))
            try controller.redo(to: .steps(100))
        }
        #expect(controller.currentVersion == 300)
        let error = #expect(throws: HistoryError.self) { try controller.undo(to: .steps(200)) }
        guard case let .unreadableStep(version, archiveError) = error else {
            Issue.record("expected an unreadable step, got \(String(describing: error))")
            return
        }
        #expect(version == HistoryVersion(150))
        #expect(archiveError.message.contains("checksum"))
        #expect(controller.currentVersion == 300)
        #expect(controller.undoCount == 300)
        #expect(controller.error == error)
        // Asked again, it fails again: a failed read is never taken for a missing step.
        #expect(throws: HistoryError.self) { try controller.move(to: .version(HistoryVersion(140))) }
        #expect(controller.currentVersion == 300)
        // Steps short of it still move, and the store was never written.
        try controller.undo(to: .steps(140))
        #expect(controller.currentVersion == 160)
        #expect(store.snapshot == rows)
        // The whole archive is refused on demand.
        let archive = try #require(try store.wholeArchive())
        #expect(throws: HistoryArchiveError.self) { try archive.validate(present: 300) }
    }

    @Test("An empty store opens an empty history, which saves its first steps there")
    func emptyStore() throws {
        let store = EncodedHistoryStepStore<Int>()
        let controller = VersioningController(7)
        try controller.openHistory(from: store)
        #expect(!controller.hasUndo)
        controller.append(8)
        controller.append(9)
        try controller.saveHistory(to: store)
        let reopened = VersioningController(9)
        try reopened.openHistory(from: store)
        try reopened.undo(to: .steps(2))
        #expect(reopened.currentVersion == 7)
    }

    @Test("Randomly damaged rows are refused where they are read, and a refused command changes nothing")
    func randomDamage() async throws {
        var refusals = 0
        for seed in RandomizedTesting.seeds(defaultIterations: 30) {
            await Task.yield()
            var random = SeededGenerator(seed: seed)
            let length = Int.random(in: 20...120, using: &random)
            let (_, store) = try saved(length)
            let victim = HistoryVersion(UInt64(Int.random(in: 1...length, using: &random)))
            store.damage(victim) { bytes in
                var bytes = Array(bytes)
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 32...126, using: &random)
                }
                return Data(bytes)
            }
            let controller = VersioningController(length)
            do {
                try controller.openHistory(from: store)
            } catch {
                #expect(!controller.hasUndo, "seed \(seed): a refused store changed the history")
                refusals += 1
                continue
            }
            for _ in 0..<40 {
                let before = (controller.currentVersion, controller.undoCount, controller.redoCount)
                let target = HistoryVersion(UInt64(Int.random(in: 0...length, using: &random)))
                do {
                    try controller.move(to: .version(target))
                    #expect(controller.currentVersion == Int(target.rawValue), "seed \(seed): moved to the wrong version")
                } catch let error {
                    guard case .unreadableStep = error else {
                        Issue.record("seed \(seed): \(error)")
                        break
                    }
                    refusals += 1
                    #expect(controller.currentVersion == before.0 && controller.undoCount == before.1 && controller.redoCount == before.2, "seed \(seed): a refused move changed the history")
                }
            }
        }
        #expect(refusals > 0)
    }
}

extension EncodedHistoryStepStore {
    /// Every step the store holds that still decodes, as one archive.
    func wholeArchive() throws -> HistoryArchive<Value>? {
        guard let outline = try outline() else { return nil }
        return HistoryArchive(outline: outline, steps: versions.compactMap { try? step(leadingTo: $0) })
    }
}

extension HistoryArchive where Value: Revertible {
    init(_ archive: HistoryArchive) { self = archive }

    /// `self` if it loads at `present`, else `nil`.
    func validated(present: Value) -> HistoryArchive? {
        (try? validate(present: present)) == nil ? nil : self
    }
}
