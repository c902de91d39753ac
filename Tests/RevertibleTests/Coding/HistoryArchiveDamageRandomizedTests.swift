import Foundation
import Revertible
import Testing
import TestSupport

/// Issue 29, item 4, and issue 37: archives of random histories, damaged by one to three
/// bytes changed, inserted or removed in their JSON, are each refused when they load, or load
/// and are refused by every command that reads a damaged step, which then changes nothing;
/// `validate(present:)` refuses exactly the archives whose loaded history is not fully usable.
///
/// `RANDOMIZED_ITERATIONS` sets the number of histories (each damaged 60 ways);
/// `RANDOMIZED_SEED` replays one.
@Suite("Reliability: damaged archives are refused, at load or where a step is read")
struct HistoryArchiveDamageRandomizedTests {

    @Test("Random histories, damaged at random, are refused at load or where the damage is read")
    func damagedArchives() async throws {
        var refused = 0
        var refusedWhereRead = 0
        var accepted = 0
        for seed in RandomizedTesting.seeds(defaultIterations: 24) {
            var random = SeededGenerator(seed: seed)
            let controller = randomBoardHistory(seed: seed, random: &random)
            let present = controller.currentVersion
            let bytes = Array(try JSONEncoder().encode(controller.archive))
            // The undamaged archive loads, usable: the check refuses only damage.
            let intact = try readArchive(HistoryArchive<Board>.self, from: Data(bytes))
            if let problem = usabilityProblem(of: intact, present: present, limit: controller.historyLimit) {
                Issue.record("seed \(seed), undamaged: \(problem)")
                continue
            }
            for round in 0..<60 {
                // A long synchronous loop would hold one of the few threads the tests share
                // (two on a two-core machine) for minutes on a loaded machine, and starve the
                // asynchronous tests that run beside it past their time limits.
                await Task.yield()
                // Most damage breaks the JSON or the structure, which loading refuses: a third
                // of the rounds change one letter, which in a step's content (a title, a
                // label) still decodes, and is found where the step is read.
                let damaged = round < 40 ? damageJSON(bytes, random: &random) : damageALetter(bytes, random: &random)
                guard let archive = try? readArchive(HistoryArchive<Board>.self, from: Data(damaged)) else {
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
                let context = "seed \(seed), round \(round)\n\(String(decoding: damaged, as: UTF8.self))"
                let validation = Result { () throws(HistoryArchiveError) in try archive.validate(present: present) }
                if case .success = validation {
                    // Damage nothing can see (a tag's name, say): the history is whole.
                    if let problem = usabilityProblem(of: archive, present: present, limit: controller.historyLimit) {
                        Issue.record("a damaged archive passed validate(present:), loaded and \(problem): \(context)")
                    }
                    continue
                }
                let (refusals, problem) = walkRefusingDamage(archive, present: present, limit: controller.historyLimit)
                if let problem {
                    Issue.record("a damaged archive loaded and \(problem): \(context)")
                } else if refusals == 0 {
                    Issue.record("validate(present:) refused a damaged archive (\(validation)), and no command of a walk everywhere was: \(context)")
                }
                refusedWhereRead += refusals > 0 ? 1 : 0
            }
        }
        // Not vacuous: damage happened and was refused, at load and where it was read.
        print("damaged archives: \(refused) refused at load, \(accepted) loaded, \(refusedWhereRead) of them refused where the damage was read")
        #expect(refused > 0)
        #expect(refusedWhereRead > 0)
        #expect(refused + accepted > 0)
    }

    /// One lowercase ASCII letter changed into another.
    private func damageALetter(_ bytes: [UInt8], random: inout SeededGenerator) -> [UInt8] {
        let letters = bytes.indices.filter { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[$0]) }
        guard let at = letters.randomElement(using: &random) else { return bytes }
        var damaged = bytes
        damaged[at] = UInt8(ascii: "a") + (damaged[at] - UInt8(ascii: "a") + UInt8.random(in: 1...25, using: &random)) % 26
        return damaged
    }

    /// What a refused command must leave as it was: the value and everything observable
    /// about the history.
    private struct Observed: Equatable {
        let value: Board
        let history: HistoryObservation

        init(_ controller: VersioningController<Board, Board, HistoryError>) {
            value = controller.currentVersion
            history = HistoryObservation(controller)
        }
    }

    /// Loads `archive`, which `validate(present:)` refused, twice onto `present` and walks it
    /// as ``usabilityProblem(of:present:limit:)`` does, going on past refusals: each command
    /// either works, or is refused with `HistoryError.unreadableStep` and changes nothing (the
    /// value, the version, the undo and redo counts, the scope level). Every loop is bounded.
    ///
    /// - Returns: How many commands were refused, and the first problem, if any.
    private func walkRefusingDamage(_ archive: HistoryArchive<Board>, present: Board, limit: Int?) -> (refusals: Int, problem: String?) {
        var refusals = 0
        var problem: String?
        /// Runs `command`; `false` if it was refused (as it may be, for damage alone).
        func attempt(_ name: String, on controller: VersioningController<Board, Board, HistoryError>, _ command: () throws -> Void) -> Bool {
            let before = Observed(controller)
            do {
                try command()
                return true
            } catch {
                refusals += 1
                guard case .unreadableStep = error as? HistoryError else {
                    problem = problem ?? "\(name) was refused for something else than a damaged step: \(error)"
                    return false
                }
                if Observed(controller) != before {
                    problem = problem ?? "\(name) was refused (\(error)) but changed the history"
                }
                return false
            }
        }
        let walked = VersioningController(present, historyLimit: limit)
        let popped = VersioningController(present, historyLimit: limit)
        do {
            try walked.restoreHistory(from: archive)
            try popped.restoreHistory(from: archive)
        } catch {
            return (refusals, "did not load the second time: \(error)")
        }
        for _ in 0..<16 {
            var moves = 0
            while walked.hasUndo, moves < 10_000, attempt("undo", on: walked, { _ = try walked.undo() }) { moves += 1 }
            while walked.hasRedo, moves < 20_000, attempt("redo", on: walked, { _ = try walked.redo() }) { moves += 1 }
            for step in walked.tree() {
                if attempt("a move to \(step.version)", on: walked, { _ = try walked.move(to: .version(step.version)) }),
                   walked.currentVersionID != step.version {
                    problem = problem ?? "a move to \(step.version) ended at \(walked.currentVersionID)"
                }
                for tag in step.tags { _ = attempt("a move to \(tag)", on: walked, { _ = try walked.move(to: .tag(tag)) }) }
            }
            // `tree()` lists the steps that read: the archive's own list reaches a damaged one.
            for step in archive.steps where step.scopeLevel == walked.scopeLevel {
                _ = attempt("a move to saved \(step.version)", on: walked, { _ = try walked.move(to: .version(step.version)) })
            }
            guard walked.scopeLevel > 0 else { break }
            let level = walked.scopeLevel
            guard attempt("abandoning scope \(level)", on: walked, { _ = try walked.undoAndPopCurrentScope() })
                    || attempt("popping scope \(level)", on: walked, { try walked.popCurrentScope() }) else { break }
            if walked.scopeLevel != level - 1 { problem = problem ?? "ending scope \(level) left scope \(walked.scopeLevel)" }
        }
        for _ in 0..<16 where popped.scopeLevel > 0 {
            guard attempt("popping", on: popped, { try popped.popCurrentScope() }) else { break }
        }
        _ = attempt("undo to the start", on: popped, { _ = try popped.undo(to: .steps(popped.undoCount)) })
        _ = attempt("redo to the end", on: popped, { _ = try popped.redo(to: .steps(popped.redoCount)) })
        return (refusals, problem)
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
