import Foundation
import Testing
import Revertible

/// Issue 38: a sync writer's read-modify-absorb is one step under the controller's lock, as a
/// transaction is, so neither loses the other's change.
@Suite("Absorbing as a transaction")
struct AbsorbTransactionTests {

    struct Counts: Versionable, Equatable, Sendable {
        var local = 0
        var remote = 0

        func addReversions(into reverter: inout some Reverter<Counts>) {
            reverter.appendReversion(at: \.local)
            reverter.appendReversion(at: \.remote)
        }
    }

    @Test("absorb { } changes the current version without a step")
    func absorbsWithoutStep() {
        let controller = ValueVersioningController(Counts())
        controller.append(Counts(local: 1))
        let result = controller.absorb { $0.remote = 5 }
        #expect(result == Counts(local: 1, remote: 5))
        #expect(controller.currentVersion == result)
        #expect(controller.undoCount == 1)
        _ = try? controller.undo()
        #expect(controller.currentVersion == Counts(local: 0, remote: 5))
    }

    @Test("A body that throws absorbs nothing")
    func throwingBody() {
        struct Refusal: Error {}
        let controller = ValueVersioningController(Counts())
        #expect(throws: Refusal.self) {
            try controller.absorb { (value: inout Counts) throws(Refusal) in
                value.remote = 1
                throw Refusal()
            }
        }
        #expect(controller.currentVersion == Counts())
    }

    @Test("A transaction and a sync writer absorbing at once lose no update")
    func concurrentWriters() async throws {
        let controller = ValueVersioningController(Counts())
        let rounds = 500
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<rounds { controller.setWithTransaction { $0.local += 1 } }
            }
            group.addTask {
                for _ in 0..<rounds { controller.absorb { $0.remote += 1 } }
            }
        }
        #expect(controller.currentVersion == Counts(local: rounds, remote: rounds))
        #expect(controller.undoCount == rounds)
        try controller.undo(to: .steps(rounds))
        #expect(controller.currentVersion == Counts(local: 0, remote: rounds))
    }
}
