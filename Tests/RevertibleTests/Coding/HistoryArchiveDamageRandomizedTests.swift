import Foundation
import Revertible
import Testing
import TestSupport

/// Issue 29, item 4: archives of random histories, damaged by one to three bytes changed,
/// inserted or removed in their JSON, are each refused with an error or load fully usable.
///
/// `RANDOMIZED_ITERATIONS` sets the number of histories (each damaged 40 ways);
/// `RANDOMIZED_SEED` replays one.
@Suite("Reliability: damaged archives are refused or fully usable")
struct HistoryArchiveDamageRandomizedTests {

    @Test("Random histories, damaged at random, load only when fully usable")
    func damagedArchives() async throws {
        var refused = 0
        var accepted = 0
        for seed in RandomizedTesting.seeds(defaultIterations: 24) {
            var random = SeededGenerator(seed: seed)
            let controller = randomHistory(seed: seed, random: &random)
            let present = controller.currentVersion
            let bytes = Array(try JSONEncoder().encode(controller.archive))
            // The undamaged archive loads, usable: the check refuses only damage.
            let intact = try JSONDecoder().decode(HistoryArchive<Board>.self, from: Data(bytes))
            if let problem = usabilityProblem(of: intact, present: present, limit: controller.historyLimit) {
                Issue.record("seed \(seed), undamaged: \(problem)")
                continue
            }
            for round in 0..<40 {
                // A long synchronous loop would hold one of the few threads the tests share
                // (two on a two-core machine) for minutes on a loaded machine, and starve the
                // asynchronous tests that run beside it past their time limits.
                await Task.yield()
                let damaged = damage(bytes, random: &random)
                guard let archive = try? JSONDecoder().decode(HistoryArchive<Board>.self, from: Data(damaged)) else {
                    refused += 1
                    continue
                }
                let loaded = VersioningController(present, historyLimit: controller.historyLimit)
                do {
                    try loaded.restoreHistory(from: archive)
                } catch {
                    refused += 1
                    #expect(!error.message.isEmpty)
                    #expect(!loaded.hasUndo && !loaded.hasRedo && loaded.scopeLevel == 0, "seed \(seed), round \(round): a refused archive changed the controller")
                    continue
                }
                accepted += 1
                if let problem = usabilityProblem(of: archive, present: present, limit: controller.historyLimit) {
                    Issue.record("seed \(seed), round \(round): a damaged archive loaded and \(problem)\n\(String(decoding: damaged, as: UTF8.self))")
                }
            }
        }
        // Not vacuous: damage happened and was refused.
        #expect(refused > 0)
        #expect(refused + accepted > 0)
    }

    /// A history of random edits, undos, redos, tags, scopes pushed, popped and abandoned,
    /// sometimes under a limit, some scopes left open.
    private func randomHistory(seed: UInt64, random: inout SeededGenerator) -> VersioningController<Board, Board, HistoryError> {
        var factory = BoardFactory(seed: seed)
        var board = factory.board()
        let limit: Int? = Bool.random(using: &random) ? nil : Int.random(in: 2...6, using: &random)
        let controller = VersioningController(board, historyLimit: limit)
        for index in 0..<Int.random(in: 4...24, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: board = (try? controller.undo()) ?? board
            case 1: board = (try? controller.redo()) ?? board
            case 2: controller.tag("t\(index)")
            case 3 where controller.scopeLevel < 3: controller.pushNewScope()
            case 4 where controller.scopeLevel > 0:
                try? controller.popCurrentScope()
                board = controller.currentVersion
            case 5 where controller.scopeLevel > 0:
                board = (try? controller.undoAndPopCurrentScope()) ?? controller.currentVersion
            default:
                board = factory.edit(board)
                controller.append(board)
            }
        }
        return controller
    }

    /// One to three bytes changed, inserted or removed.
    private func damage(_ bytes: [UInt8], random: inout SeededGenerator) -> [UInt8] {
        var damaged = bytes
        // Bytes a JSON edit would plausibly bring: digits, letters, quotes, brackets.
        let alphabet = Array(#"0123456789abcdefnrtuvxyz"{}[]:,.-\ "#.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !damaged.isEmpty {
            let at = Int.random(in: 0..<damaged.count, using: &random)
            let byte = Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: damaged[at] = byte
            case 1: damaged.insert(byte, at: at)
            default: damaged.remove(at: at)
            }
        }
        return damaged
    }

    /// Loads `archive` twice onto `present` and uses it everywhere: in each scope, innermost
    /// first, undo and redo to both ends, a move to every version and tag, back to where it
    /// loaded (the same present), then abandon the scope; the other copy pops every scope,
    /// then undoes and redoes to both ends. Every loop is bounded. `nil` when all of it works.
    private func usabilityProblem(of archive: HistoryArchive<Board>, present: Board, limit: Int?) -> String? {
        let walked = VersioningController(present, historyLimit: limit)
        let popped = VersioningController(present, historyLimit: limit)
        do {
            try walked.restoreHistory(from: archive)
            try popped.restoreHistory(from: archive)
        } catch {
            return "did not load: \(error)"
        }
        do {
            for _ in 0..<16 {
                let version = walked.currentVersionID
                let loadedPresent = walked.currentVersion
                var moves = 0
                while walked.hasUndo, moves < 10_000 { try walked.undo(); moves += 1 }
                while walked.hasRedo, moves < 20_000 { try walked.redo(); moves += 1 }
                if walked.hasUndo && walked.hasRedo { return "undo and redo never end" }
                for step in walked.tree() {
                    try walked.move(to: .version(step.version))
                    guard walked.currentVersionID == step.version else { return "a move to \(step.version) ended at \(walked.currentVersionID)" }
                    for tag in step.tags { try walked.move(to: .tag(tag)) }
                }
                try walked.move(to: .version(version))
                guard walked.currentVersion == loadedPresent else { return "back at \(version), the present differs" }
                guard walked.scopeLevel > 0 else { break }
                let level = walked.scopeLevel
                try walked.undoAndPopCurrentScope()
                guard walked.scopeLevel == level - 1 else { return "undoAndPopCurrentScope did not end scope \(level)" }
            }
            for _ in 0..<16 where popped.scopeLevel > 0 {
                try popped.popCurrentScope()
            }
            guard popped.scopeLevel == 0 else { return "popping never reached the outermost scope" }
            try popped.undo(to: .steps(popped.undoCount))
            try popped.redo(to: .steps(popped.redoCount))
            guard !popped.hasUndo || !popped.hasRedo else { return "undo and redo to the ends left steps" }
        } catch {
            return "a command was refused: \(error)"
        }
        return nil
    }
}
