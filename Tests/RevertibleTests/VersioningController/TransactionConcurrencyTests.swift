import Foundation
import Testing
import Revertible

/// Transactions from many tasks on one controller: each is one read-modify-write.
@Suite("Transaction concurrency")
struct TransactionConcurrencyTests {

    static let tasks = 8
    static let transactionsPerTask = 500

    @Test("Concurrent transactions lose no update, and each is one step")
    func concurrentTransactions() async throws {
        let controller = ValueVersioningController(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.transactionsPerTask {
                        controller.setWithTransaction { $0 += 1 }
                    }
                }
            }
        }
        let total = Self.tasks * Self.transactionsPerTask
        #expect(controller.currentVersion == total)
        #expect(controller.undoCount == total)
        try controller.undo(to: .steps(total))
        #expect(controller.currentVersion == 0)
    }

    @Test("Concurrent transactions of a @Versioned property lose no update")
    func concurrentVersionedTransactions() async {
        struct Counter: Sendable {
            @Versioned var count = 0
        }
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<Self.transactionsPerTask {
                        counter.$count.setWithTransaction { $0 += 1 }
                    }
                }
            }
        }
        #expect(counter.count == Self.tasks * Self.transactionsPerTask)
    }

    @Test("A transaction whose body throws records nothing and leaves the controller usable")
    func throwingTransaction() throws {
        struct Refusal: Error {}
        let controller = ValueVersioningController(1)
        #expect(throws: Refusal.self) {
            try controller.setWithTransaction { (value: inout Int) throws(Refusal) in
                value = 2
                throw Refusal()
            }
        }
        #expect(controller.currentVersion == 1)
        #expect(!controller.hasUndo)
        controller.setWithTransaction { $0 = 3 }
        #expect(try controller.undo() == 1)
    }

    @Test("Concurrent asynchronous transactions on different keys all land")
    func concurrentAsyncTransactions() async throws {
        // Every key is there from the start: a dictionary change also checks the count.
        let controller = ValueVersioningController(Dictionary(uniqueKeysWithValues: (0..<Self.tasks).map { ($0, 0) }))
        let perTask = 100
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.tasks {
                group.addTask {
                    for _ in 0..<perTask {
                        await controller.setWithTransaction { (counts: inout [Int: Int]) async in
                            counts[task]! += 1
                            await Task.yield()
                        }
                    }
                }
            }
        }
        #expect(controller.error == nil)
        #expect(controller.currentVersion == Dictionary(uniqueKeysWithValues: (0..<Self.tasks).map { ($0, perTask) }))
        #expect(controller.undoCount == Self.tasks * perTask)
    }
}
