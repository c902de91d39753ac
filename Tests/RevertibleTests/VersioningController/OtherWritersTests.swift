import Foundation
import Testing
@testable import Revertible

/// Issue 24: a history shared with other writers (absorbed changes) never jams; undo and redo
/// are selective, by a conflict policy per controller and per call.
@Suite("Other writers: selective undo and redo in a history")
struct OtherWritersTests {

    private let a = LedgerAccount(id: 1, name: "A", balance: 0)
    private let b = LedgerAccount(id: 2, name: "B", balance: 0)

    /// Add A, add B, deposit into A, then another writer archives B.
    private func ledgerController() -> ValueVersioningController<Ledger> {
        var ledger = Ledger()
        let controller = ValueVersioningController(ledger)
        ledger.accounts.append(a)
        controller.append(ledger)
        ledger.accounts.append(b)
        controller.append(ledger)
        ledger.accounts[0].balance = 50
        controller.append(ledger)
        ledger.accounts[1].archived = true
        controller.absorb(ledger)
        return controller
    }

    private func undoAll(_ controller: ValueVersioningController<Ledger>) throws -> [ReversionConflict] {
        var conflicts: [ReversionConflict] = []
        while controller.hasUndo {
            try controller.undo()
            conflicts += controller.lastConflicts
        }
        return conflicts
    }

    @Test("The ledger undoes all the way back with one conflict, and redoes what undo did")
    func ledgerUndoesAllTheWayBack() throws {
        let controller = ledgerController()

        let conflicts = try undoAll(controller)

        #expect(conflicts.map(\.location) == ["\\Ledger.accounts[id: 2]"])
        #expect(controller.currentVersion.accounts == [LedgerAccount(id: 2, name: "B", balance: 0, archived: true)])
        try controller.redo(to: .steps(3))
        #expect(controller.lastConflicts.isEmpty)
        #expect(controller.currentVersion.accounts == [
            LedgerAccount(id: 1, name: "A", balance: 50),
            LedgerAccount(id: 2, name: "B", balance: 0, archived: true),
        ])
    }

    @Test("The ledger saved after the other writer loads and undoes all the way back")
    func ledgerAfterReload() throws {
        let controller = ledgerController()
        let data = try JSONEncoder().encode(controller.archive)
        let archive = try JSONDecoder().decode(HistoryArchive<Ledger>.self, from: data)
        let loaded = ValueVersioningController(controller.currentVersion)

        try loaded.restoreHistory(from: archive)
        let conflicts = try undoAll(loaded)

        #expect(loaded.undoCount == 0)
        #expect(conflicts.count == 1)
        #expect(loaded.currentVersion.accounts.map(\.id) == [2])
        #expect(String(decoding: data, as: UTF8.self).contains("\"absorbed\":true"))
    }

    @Test("A history nobody else wrote saves as before, without the absorbed mark")
    func archiveWithoutOtherWriters() throws {
        var ledger = Ledger()
        let controller = ValueVersioningController(ledger)
        ledger.accounts.append(a)
        controller.append(ledger)

        let text = String(decoding: try JSONEncoder().encode(controller.archive), as: UTF8.self)

        #expect(!text.contains("absorbed"))
    }

    @Test("A damaged step still fails to load after the other writer")
    func damagedArchiveStillRefused() throws {
        let controller = ledgerController()
        let text = String(decoding: try JSONEncoder().encode(controller.archive), as: UTF8.self)
        // Renames the saved account whose insertion step is kept whole: its checksum no longer fits.
        let damaged = text.replacingOccurrences(of: "\"B\"", with: "\"Z\"")
        #expect(damaged != text)

        #expect(throws: (any Error).self) {
            let archive = try JSONDecoder().decode(HistoryArchive<Ledger>.self, from: Data(damaged.utf8))
            try ValueVersioningController(controller.currentVersion).restoreHistory(from: archive)
        }
    }

    @Test("Refusing throws the conflict and changes nothing; dropping the step lets undo go on")
    func refuseThenDrop() throws {
        let controller = ledgerController()
        controller.conflictPolicy = .refuse
        try controller.undo()
        let before = controller.currentVersion

        let error = #expect(throws: HistoryError.self) { try controller.undo() }

        #expect(error?.isConflict == true)
        #expect(error?.description.contains("accounts[id: 2]") == true)
        #expect(controller.currentVersion == before)
        #expect(controller.undoCount == 2)
        controller.dropNextUndo()
        #expect(controller.undoCount == 1)
        #expect(controller.currentVersion == before)
        try controller.undo()
        #expect(controller.currentVersion.accounts.map(\.id) == [2])
        #expect(!controller.hasUndo)
    }

    @Test("A call's policy wins over the controller's: overwrite removes what the other writer changed")
    func overwritePerCall() throws {
        let controller = ledgerController()
        try controller.undo()

        try controller.undo(onConflict: .overwrite)

        #expect(controller.lastConflicts.count == 1)
        #expect(controller.currentVersion.accounts == [a])
    }

    @Test("setWithoutTracking is absorbed: undo keeps going where it once jammed")
    func setWithoutTrackingDoesNotJam() throws {
        var note = Ledger(memo: "a")
        let controller = ValueVersioningController(note)
        note.memo = "b"
        controller.append(note)
        note.accounts = [a]
        controller.append(note)
        note.memo = "foreign"
        controller.setWithoutTracking(note)

        try controller.undo()
        try controller.undo()

        #expect(controller.lastConflicts.map(\.location) == ["\\Ledger.memo!"])
        #expect(controller.currentVersion == Ledger(memo: "foreign"))
        #expect(!controller.hasUndo)
        // The next step holds only its own change.
        note = controller.currentVersion
        note.tags = ["x"]
        controller.append(note)
        try controller.undo()
        #expect(controller.currentVersion == Ledger(memo: "foreign"))
    }

    @Test("Popping and abandoning scopes go around another writer's change")
    func scopes() throws {
        for abandoning in [false, true] {
            var ledger = Ledger(memo: "start")
            let controller = ValueVersioningController(ledger)
            controller.pushNewScope()
            ledger.memo = "scoped"
            ledger.accounts = [a]
            controller.append(ledger)
            ledger.memo = "foreign"
            controller.absorb(ledger)

            if abandoning {
                try controller.undoAndPopCurrentScope()
                #expect(controller.currentVersion == Ledger(memo: "foreign"))
                #expect(controller.lastConflicts.count == 1)
            } else {
                try controller.popCurrentScope()
                try controller.undo()
                #expect(controller.currentVersion == Ledger(memo: "foreign"))
            }
            #expect(controller.scopeLevel == 0)
        }
    }

    @Test("The limit folds an inner scope's steps past another writer's change")
    func limitFold() throws {
        var ledger = Ledger(memo: "start")
        let controller = ValueVersioningController(ledger)
        controller.pushNewScope()
        ledger.memo = "one"
        controller.append(ledger)
        ledger.memo = "foreign"
        controller.absorb(ledger)
        for index in 0..<3 {
            ledger.amounts.append(index)
            controller.append(ledger)
        }

        controller.historyLimit = 1

        #expect(controller.undoCount == 1)
        try controller.undoAndPopCurrentScope()
        #expect(controller.currentVersion == Ledger(memo: "foreign"))
    }

    @Test("A move through the tree goes past another writer's change, and back")
    func treeMove() throws {
        var ledger = Ledger()
        let controller = ValueVersioningController(ledger)
        ledger.memo = "x"
        controller.append(ledger)
        let x = controller.currentVersionID
        try controller.undo()
        ledger.memo = "y"
        ledger.accounts = [a]
        controller.append(ledger)
        ledger.accounts[0].name = "foreign"
        controller.absorb(ledger)

        try controller.move(to: .version(x))

        #expect(controller.currentVersion.memo == "x")
        #expect(controller.currentVersion.accounts.map(\.name) == ["foreign"])
        #expect(controller.lastConflicts.map(\.location) == ["\\Ledger.accounts[id: 1]"])
    }

    @Test("An in-place move takes the call's policy: refusing changes neither the value nor the history")
    func inPlaceMoveTakesThePolicy() throws {
        var ledger = Ledger()
        let controller = ValueVersioningController(ledger)
        ledger.accounts = [a]
        controller.append(ledger)
        let added = controller.currentVersionID
        ledger.accounts[0].name = "renamed"
        controller.append(ledger)
        ledger.accounts[0].name = "foreign"
        controller.absorb(ledger)
        let version = controller.currentVersionID

        #expect(throws: HistoryError.self) { try controller.move(&ledger, to: .version(added), onConflict: .refuse) }
        #expect(ledger.accounts.map(\.name) == ["foreign"])
        #expect(controller.currentVersionID == version)

        try controller.move(&ledger, to: .version(added), onConflict: .overwrite)
        #expect(ledger.accounts == [a])
        #expect(controller.lastConflicts.map(\.location) == ["\\Ledger.accounts[id: 1].name"])
    }

    @Test("@Versioned takes the policy and the calls too")
    func versionedProperty() throws {
        struct Holder {
            @Versioned var ledger = Ledger()
        }
        let holder = Holder()
        holder.ledger.memo = "mine"
        holder.$ledger.absorb(Ledger(memo: "theirs"))
        holder.$ledger.conflictPolicy = .refuse

        holder.$ledger.undo()
        #expect(holder.$ledger.error?.isConflict == true)
        holder.$ledger.undo(onConflict: .skip)
        #expect(holder.$ledger.error == nil)
        #expect(holder.ledger.memo == "theirs")
        #expect(holder.$ledger.lastConflicts.count == 1)
    }

    @Test("Dropping a step keeps the steps redo would take after it, and its tags' version")
    func dropKeepsRedo() throws {
        var ledger = Ledger()
        let controller = ValueVersioningController(ledger)
        for memo in ["one", "two", "three"] {
            ledger.memo = memo
            controller.append(ledger)
        }
        try controller.undo()
        controller.tag("before three")

        controller.dropNextUndo()

        #expect(controller.currentVersion.memo == "two")
        #expect(controller.undoCount == 1 && controller.redoCount == 1)
        try controller.redo()
        #expect(controller.currentVersion.memo == "three")
        // The dropped change stays as another writer's would: the oldest step conflicts.
        try controller.undo(to: .steps(2))
        #expect(controller.currentVersion.memo == "two")
        #expect(controller.lastConflicts.map(\.location) == ["\\Ledger.memo"])
    }

    @Test("Abandoning a scope under refuse throws the conflict and keeps the scope")
    func abandonRefused() throws {
        var ledger = Ledger(memo: "start")
        let controller = ValueVersioningController(ledger)
        controller.pushNewScope()
        ledger.memo = "scoped"
        controller.append(ledger)
        ledger.memo = "foreign"
        controller.absorb(ledger)
        controller.conflictPolicy = .refuse

        let error = #expect(throws: HistoryError.self) { try controller.undoAndPopCurrentScope() }

        #expect(error?.isConflict == true)
        #expect(controller.scopeLevel == 1 && controller.undoCount == 1)
        #expect(controller.currentVersion.memo == "foreign")
    }
}
