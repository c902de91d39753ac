import Foundation
import Testing
@testable import Revertible

/// An account of a ledger: identified, so a step finds it by id wherever it is now.
struct LedgerAccount: Identifiable, Versionable, Hashable, Sendable, Codable {
    let id: Int
    var name: String
    var balance: Int
    var archived = false

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.name)
        reverter.appendReversion(at: \.balance)
        reverter.appendReversion(at: \.archived)
    }
}

/// The ledger of issue 24, with one field per kind of collection a step can divide.
struct Ledger: Versionable, Sendable, Codable {
    var accounts: [LedgerAccount] = []
    var rows: TreeArray<LedgerAccount> = []
    var rates: [String: Int] = [:]
    var tags: Set<String> = []
    var amounts: [Int] = []
    var memo: String? = nil
    var journal: TextBuffer = ""

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.accounts)
        reverter.appendReversion(at: \.rows)
        reverter.appendReversion(at: \.rates)
        reverter.appendReversion(at: \.tags)
        reverter.appendReversion(at: \.amounts)
        reverter.appendReversion(at: \.memo)
        reverter.appendReversion(at: \.journal)
    }
}

/// Records `change` on `value` and returns its reversion (the step's undo).
private func step(_ value: inout Ledger, _ change: (inout Ledger) -> Void) throws -> Reversion<Ledger> {
    let before = value
    change(&value)
    return try #require(value.reversion(to: before))
}

/// Node by node: each collection's locations are its elements found by identity (or key, or
/// member); another writer's change elsewhere is no conflict.
@Suite("Selective reverting: locations by identity, per kind of change")
struct SelectiveNodeTests {

    private let a = LedgerAccount(id: 1, name: "A", balance: 0)
    private let b = LedgerAccount(id: 2, name: "B", balance: 0)
    private let c = LedgerAccount(id: 3, name: "C", balance: 0)

    @Test("The ledger undoes all the way back with exactly one conflict")
    func ledger() throws {
        var ledger = Ledger()
        let addA = try step(&ledger) { $0.accounts.append(a) }
        let addB = try step(&ledger) { $0.accounts.append(b) }
        let deposit = try step(&ledger) { $0.accounts[0].balance += 50 }
        ledger.accounts[1].archived = true

        var conflicts: [ReversionConflict] = []
        for reversion in [deposit, addB, addA] {
            conflicts += reversion.revertSelectively(&ledger, onConflict: .skip)
        }

        #expect(conflicts.count == 1)
        #expect(conflicts.first?.location == "\\Ledger.accounts[id: 2]")
        #expect(ledger.accounts == [LedgerAccount(id: 2, name: "B", balance: 0, archived: true)])
    }

    @Test("An edit finds its element by id after other writers inserted and moved others")
    func editFollowsIdentity() throws {
        var ledger = Ledger(accounts: [a, b])
        let deposit = try step(&ledger) { $0.accounts[1].balance = 7 }
        ledger.accounts.insert(c, at: 0)
        ledger.accounts.swapAt(1, 2)

        let conflicts = deposit.revertSelectively(&ledger, onConflict: .refuse)

        #expect(conflicts.isEmpty)
        #expect(ledger.accounts.map(\.id) == [3, 2, 1], "\(deposit.debugDescription) \(ledger.accounts)")
        #expect(ledger.accounts.allSatisfy { $0.balance == 0 }, "\(deposit.debugDescription) \(ledger.accounts)")
    }

    @Test("An edit inside an element conflicts at the element's property, named by id")
    func editConflictNamesProperty() throws {
        var ledger = Ledger(accounts: [a, b])
        let rename = try step(&ledger) {
            $0.accounts[1].name = "Bee"
            $0.accounts[1].balance = 3
        }
        ledger.accounts[1].name = "Bea"
        ledger.accounts.insert(c, at: 0)

        let conflicts = rename.revertSelectively(&ledger, onConflict: .skip)

        #expect(conflicts == [ReversionConflict(location: "\\Ledger.accounts[id: 2].name", expected: "…ee…", found: "Bea")])
        #expect(ledger.accounts.map(\.id) == [3, 1, 2])
        #expect(ledger.accounts[2].name == "Bea")
        #expect(ledger.accounts[2].balance == 0)
    }

    @Test("An inserted element that another writer changed is a conflict; overwriting removes it")
    func insertedAndChanged() throws {
        var ledger = Ledger(accounts: [a])
        let add = try step(&ledger) { $0.accounts.append(b) }
        ledger.accounts[1].balance = 9
        var skipped = ledger

        let skipConflicts = add.revertSelectively(&skipped, onConflict: .skip)
        let overwriteConflicts = add.revertSelectively(&ledger, onConflict: .overwrite)

        #expect(skipConflicts.map(\.location) == ["\\Ledger.accounts[id: 2]"])
        #expect(skipConflicts.first?.found?.contains("balance: 9") == true)
        #expect(skipped.accounts.map(\.id) == [1, 2])
        #expect(overwriteConflicts.count == 1)
        #expect(ledger.accounts == [a])
    }

    @Test("A removed element comes back at its old place among what remains")
    func removedComesBack() throws {
        var ledger = Ledger(accounts: [a, b, c])
        let remove = try step(&ledger) { $0.accounts.remove(at: 1) }
        ledger.accounts[1].balance = 4

        let conflicts = remove.revertSelectively(&ledger, onConflict: .refuse)

        #expect(conflicts.isEmpty)
        #expect(ledger.accounts.map(\.id) == [1, 2, 3])
        #expect(ledger.accounts[2].balance == 4)
    }

    @Test("A removed element that another writer re-created is a conflict")
    func removedAndRecreated() throws {
        var ledger = Ledger(accounts: [a, b])
        let remove = try step(&ledger) { $0.accounts.remove(at: 1) }
        ledger.accounts.insert(LedgerAccount(id: 2, name: "B again", balance: 1), at: 0)
        var overwritten = ledger

        let conflicts = remove.revertSelectively(&ledger, onConflict: .skip)
        let overwriteConflicts = remove.revertSelectively(&overwritten, onConflict: .overwrite)

        #expect(conflicts == [ReversionConflict(location: "\\Ledger.accounts[id: 2]", expected: nil, found: describe(LedgerAccount(id: 2, name: "B again", balance: 1)))])
        #expect(ledger.accounts.map(\.name) == ["B again", "A"])
        #expect(overwriteConflicts.count == 1)
        #expect(overwritten.accounts == [b, a])
    }

    @Test("A removed element re-created by another writer, who kept the count, never appears twice")
    func recreatedKeepingCount() throws {
        var ledger = Ledger(accounts: [a, b, c], rows: [a, b, c])
        let remove = try step(&ledger) {
            $0.accounts.remove(at: 1)
            $0.rows.remove(at: 1)
        }
        // Another writer brings `b` back under its id and removes `a`: the count is the
        // step's, so only the ids can tell that `b` is there again.
        let again = LedgerAccount(id: 2, name: "B again", balance: 1)
        ledger.accounts = [again, c]
        ledger.rows = [again, c]

        let conflicts = remove.revertSelectively(&ledger, onConflict: .skip)

        #expect(conflicts.map(\.location).sorted() == ["\\Ledger.accounts[id: 2]", "\\Ledger.rows[id: 2]"])
        #expect(ledger.accounts.map(\.id) == [2, 3])
        #expect(Array(ledger.rows).map(\.id) == [2, 3])
        #expect(ledger.accounts[0].name == "B again")
    }

    @Test("A move is undone by id, and redo moves it again")
    func moveByIdentity() throws {
        var ledger = Ledger(accounts: [a, b, c])
        let move = try step(&ledger) { $0.accounts = [c, a, b] }
        ledger.accounts[1].balance = 5

        #expect(move.revertSelectively(&ledger, onConflict: .refuse).isEmpty)
        #expect(ledger.accounts.map(\.id) == [1, 2, 3])
        #expect(ledger.accounts[0].balance == 5)
        ledger.accounts[2].name = "Cee"
        #expect(move.inverted.revertSelectively(&ledger, onConflict: .refuse).isEmpty)
        #expect(ledger.accounts.map(\.id) == [3, 1, 2])
        #expect(ledger.accounts[0].name == "Cee")
    }

    @Test("A tree's elements are found by id as an array's are")
    func treeArrayByIdentity() throws {
        var ledger = Ledger(rows: [a, b])
        let add = try step(&ledger) { $0.rows.append(c) }
        let deposit = try step(&ledger) { $0.rows[0].balance = 8 }
        ledger.rows.insert(LedgerAccount(id: 4, name: "D", balance: 0), at: 0)
        ledger.rows[2].archived = true

        let depositConflicts = deposit.revertSelectively(&ledger, onConflict: .refuse)
        let addConflicts = add.revertSelectively(&ledger, onConflict: .skip)

        #expect(depositConflicts.isEmpty)
        #expect(addConflicts.isEmpty)
        #expect(ledger.rows.map(\.id) == [4, 1, 2])
        #expect(ledger.rows[1].balance == 0)
        #expect(ledger.rows[2].archived)

        let remove = try step(&ledger) { $0.rows.remove(at: 2) }
        ledger.rows.append(LedgerAccount(id: 2, name: "B2", balance: 0))
        let conflicts = remove.revertSelectively(&ledger, onConflict: .skip)
        #expect(conflicts.map(\.location) == ["\\Ledger.rows[id: 2]"])
        #expect(ledger.rows.map(\.name) == ["D", "A", "B2"])
    }

    @Test("A dictionary's keys are its locations")
    func dictionaryPerKey() throws {
        var ledger = Ledger(rates: ["eur": 1, "usd": 2])
        let change = try step(&ledger) {
            $0.rates["eur"] = 3
            $0.rates["chf"] = 4
            $0.rates["usd"] = nil
        }
        ledger.rates["gbp"] = 5
        ledger.rates["chf"] = 6

        let conflicts = change.revertSelectively(&ledger, onConflict: .skip)

        #expect(conflicts == [ReversionConflict(location: "\\Ledger.rates[\"chf\"]", expected: "4", found: "6")])
        #expect(ledger.rates == ["eur": 1, "usd": 2, "gbp": 5, "chf": 6])
    }

    @Test("A set's members are its locations")
    func setPerMember() throws {
        var ledger = Ledger(tags: ["old"])
        let change = try step(&ledger) {
            $0.tags.insert("new")
            $0.tags.remove("old")
        }
        ledger.tags.insert("other")
        ledger.tags.insert("old")

        let conflicts = change.revertSelectively(&ledger, onConflict: .skip)

        #expect(conflicts.map(\.location) == ["\\Ledger.tags[\"old\"]"])
        #expect(ledger.tags == ["old", "other"])
    }

    @Test("A positional array is one location: a change at another position is none, a shift is one")
    func positionalArray() throws {
        var ledger = Ledger(amounts: [1, 2, 3])
        let change = try step(&ledger) { $0.amounts[1] = 20 }
        ledger.amounts[2] = 30
        var shifted = ledger
        shifted.amounts.insert(0, at: 0)

        #expect(change.revertSelectively(&ledger, onConflict: .refuse).isEmpty)
        #expect(ledger.amounts == [1, 2, 30])
        let conflicts = change.revertSelectively(&shifted, onConflict: .skip)
        #expect(conflicts.map(\.location) == ["\\Ledger.amounts"])
        #expect(conflicts.first?.expected == "3 elements, [1]: 20")
        #expect(shifted.amounts == [0, 1, 20, 30])
    }

    @Test("A positional array's changed position is overwritten when the length still fits")
    func positionalOverwrite() throws {
        var ledger = Ledger(amounts: [1, 2, 3])
        let change = try step(&ledger) { $0.amounts.append(4) }
        ledger.amounts[3] = 40

        let conflicts = change.revertSelectively(&ledger, onConflict: .overwrite)

        #expect(conflicts.count == 1)
        #expect(ledger.amounts == [1, 2, 3])
    }

    @Test("An optional set to nil by another writer is a conflict")
    func optionalGone() throws {
        var ledger = Ledger(memo: "one")
        let change = try step(&ledger) { $0.memo = "two" }
        ledger.memo = nil

        let conflicts = change.revertSelectively(&ledger, onConflict: .skip)

        #expect(conflicts.count == 1)
        #expect(ledger.memo == nil)
    }

    @Test("A text's run is restored over another writer's where they overlap, when overwriting")
    func textBuffer() throws {
        var ledger = Ledger(journal: "opening balance")
        let change = try step(&ledger) { $0.journal = "opening BALANCE" }
        ledger.journal = "the opening BALANCE!"
        var overwritten = ledger
        overwritten.journal = "opening BAL"

        let conflicts = change.revertSelectively(&ledger, onConflict: .skip)
        let overwriteConflicts = change.revertSelectively(&overwritten, onConflict: .overwrite)

        #expect(conflicts.map(\.location) == ["\\Ledger.journal"])
        #expect(conflicts.first?.expected == "…BALANCE…")
        #expect(conflicts.first?.found == "the opening BALANCE!")
        #expect(String(ledger.journal) == "the opening BALANCE!")
        #expect(overwriteConflicts.count == 1)
        #expect(String(overwritten.journal) == "opening balance")
    }

    @Test("Overwriting a string restores the step's run between its unchanged ends")
    func stringOverwriteRestoresRun() throws {
        var ledger = Ledger(memo: "abc")
        let change = try step(&ledger) { $0.memo = "aXc" }
        ledger.memo = "aYYc"

        let conflicts = change.revertSelectively(&ledger, onConflict: .overwrite)

        #expect(conflicts == [ReversionConflict(location: "\\Ledger.memo!", expected: "…X…", found: "aYYc")])
        #expect(ledger.memo == "abc")
    }
}
