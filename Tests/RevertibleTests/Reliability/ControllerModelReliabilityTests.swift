import Foundation
import Testing
import Revertible
import TestSupport

/// Random sequences of edits, appends, undos, redos, tags, scopes, transactions, limits and
/// clears, run on a controller and on the snapshot model (``ReferenceHistory``); after every
/// operation the controller must show what the model shows.
///
/// On failure the message names the seed, the failing operation, and the shortest failing
/// sequence found. Replay with `RANDOMIZED_SEED=<seed> swift test --filter
/// ControllerModelReliabilityTests`; see ``RandomizedTesting`` for the other knobs.
@Suite("Reliability: the controller agrees with the reference model")
struct ControllerModelReliabilityTests {

    @Test("Random operation sequences, in every tracking mode", arguments: TrackingMode.allCases)
    func randomSequences(mode: TrackingMode) {
        // One shrunk failure per mode is enough to read.
        let report = firstFailingSequence(suite: "ControllerModelReliabilityTests", defaultIterations: 75) { seed in
            var factory = BoardFactory(seed: seed)
            // Odd seeds debounce, so grouped appends group; even seeds do not.
            let run = ModelBasedRun(mode: mode, initial: factory.board(), debounces: seed % 2 == 1)
            let operations = HistoryOperation.randomSequence(seed: seed, count: RandomizedTesting.operationsPerSequence)
            return ("\(mode)\(run.debounces ? ", debouncing" : "")", operations, run.firstFailure(of:))
        }
        if let report { Issue.record("\(report)") }
    }

    /// A generator that never builds deep stacks would pass vacuously: the CI seeds must reach
    /// the states where histories go wrong.
    @Test("The random sequences reach deep scopes, long redos, tag jumps, trims, squashes and groups")
    func sequencesAreNotDegenerate() {
        var reached = (deepScope: 0, longRedo: 0, tagJump: 0, trim: 0, squash: 0, groupJoin: 0)
        for seed in UInt64(1)...20 {
            var factory = BoardFactory(seed: seed)
            var model = ReferenceHistory(factory.board())
            for operation in HistoryOperation.randomSequence(seed: seed, count: RandomizedTesting.defaultOperations) {
                let before = model
                model.apply(operation, editing: model.current)
                switch operation {
                case .pushScope where model.scopeLevel >= 2: reached.deepScope += 1
                case .redo where before.redoCount >= 3, .redoScope where before.redoCount >= 3: reached.longRedo += 1
                case .undoToTag where before.undoCount - model.undoCount >= 2,
                     .redoToTag where before.redoCount - model.redoCount >= 2: reached.tagJump += 1
                case .setLimit where model.undoCount < before.undoCount: reached.trim += 1
                case .popScope where before.undoCount >= 2: reached.squash += 1
                case .appendGrouped where before.isGroupOpen: reached.groupJoin += 1
                default: break
                }
            }
        }
        #expect(reached.deepScope >= 10, "\(reached)")
        #expect(reached.longRedo >= 10, "\(reached)")
        #expect(reached.tagJump >= 10, "\(reached)")
        #expect(reached.trim >= 3, "\(reached)")
        #expect(reached.squash >= 10, "\(reached)")
        #expect(reached.groupJoin >= 10, "\(reached)")
    }
}
