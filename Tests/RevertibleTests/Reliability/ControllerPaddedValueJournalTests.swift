import Foundation
@testable import Revertible
import Testing
import TestSupport

/// Issue 39: a value with padding before its tree (a `Bool` or an `Int?` stored first) is lent
/// to a controller's transaction and journaled like any other. The transaction runs on a copy
/// of the current version, and a copy need not keep the padding bytes: a check of the whole
/// value's bytes before lending lent nothing to such a value.
@Suite("Controller journal: a value with padding is journaled")
struct ControllerPaddedValueJournalTests {

    @Test("Transactions on a value with padding before its tree are journaled and save what comparing saves")
    func journalsPaddedValue() throws {
        let start = PaddedLedger(rows: TreeArray((0..<200).map { ShapedCard(id: $0, title: "row \($0)") }))
        let journaled = VersioningController(start, clock: TestClock())
        let compared = VersioningController(start, clock: TestClock())
        compared.recordsWrites = false
        let writes: [(inout PaddedLedger) -> Void] = [
            { $0.rows[3].title = "three" },
            { $0.pinned = true },
            { $0.rows[4].done = true },
            { $0.selection = 7 },
            { $0.rows.insert(ShapedCard(id: 900, title: "new"), at: 2) },
            { $0.rows.remove(at: 1); $0.selection = nil },
            { $0.rows[8].title = "eight" },
        ]
        for write in writes {
            for controller in [journaled, compared] {
                controller.setWithTransaction { write(&$0) }
            }
            #expect(journaled.currentVersion == compared.currentVersion)
        }
        // The five writes to the tree, alone or with the selection.
        #expect(journaled.journaledStepCount == 5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(journaled.archive) == encoder.encode(compared.archive))
        let undone = try (journaled.undo(to: .steps(writes.count)), compared.undo(to: .steps(writes.count)))
        #expect(undone.0 == start && undone.1 == start)
    }
}

/// A value whose first properties leave padding before the tree.
struct PaddedLedger: Versionable, Equatable, Sendable, Codable {
    var pinned = false
    var rows: TreeArray<ShapedCard>
    var selection: Int?
    var name = ""

    func addReversions(into reverter: inout some Reverter<PaddedLedger>) {
        reverter.appendReversion(at: \.pinned)
        reverter.appendReversion(at: \.rows)
        reverter.appendReversion(at: \.selection)
        reverter.appendReversion(at: \.name)
    }
}
