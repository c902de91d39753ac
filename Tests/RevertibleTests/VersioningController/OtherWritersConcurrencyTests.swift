import Foundation
import Testing
import Revertible

/// Issue 24 under ThreadSanitizer (CI runs suites whose names hold "Concurrency" with it):
/// changes absorbed without a step, from one task, while others record steps by an author and
/// take them back with `undo(by:)`.
@Suite("Other writers concurrency")
struct OtherWritersConcurrencyTests {

    struct Pair: Versionable, Equatable, Sendable {
        var mine = 0
        var theirs = 0

        func addReversions(into reverter: inout some Reverter<Pair>) {
            reverter.appendReversion(at: \.mine)
            reverter.appendReversion(at: \.theirs)
        }
    }

    @Test("Absorbed writes racing recorded transactions and per-author undo make no step and never jam")
    func absorbWhileRecording() async throws {
        let controller = ValueVersioningController(Pair())
        controller.author = "ana"
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for value in 1...300 {
                    var pair = controller.currentVersion
                    pair.theirs = value
                    controller.setWithoutTracking(pair)
                }
            }
            for task in 0..<2 {
                group.addTask {
                    for step in 0..<150 {
                        controller.setWithTransaction { $0.mine += 1 }
                        if (task + step) % 5 == 0 { _ = try? controller.undo(by: "ana") }
                        if (task + step) % 11 == 0 { _ = try? controller.redo(by: "ana") }
                    }
                }
            }
        }
        // Only ana recorded: every step is hers, whatever the interleaving.
        #expect(!controller.tree().isEmpty && controller.tree().allSatisfy { $0.author == "ana" })
        // Her undo takes back one step at a time and ends, never refused for the other writes.
        var moves = 0
        var version = controller.currentVersion
        while moves <= controller.tree().count {
            let next = try controller.undo(by: "ana")
            if next == version, controller.error == nil { break }
            version = next
            moves += 1
        }
        #expect(moves <= controller.tree().count && controller.error == nil)
    }
}
