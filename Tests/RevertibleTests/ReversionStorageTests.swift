import Foundation
import Testing
@testable import Revertible

/// A reversion stores what changed, not the value: checked on the stored parts themselves.
@Suite("What a reversion stores")
struct ReversionStorageTests {

    @Test("Editing one character of a megabyte string keeps a few bytes")
    func megabyteString() throws {
        let original = String(repeating: "abcdefghij", count: 100_000)
        var edited = original
        edited.replaceSubrange(edited.index(edited.startIndex, offsetBy: 500_000)...edited.index(edited.startIndex, offsetBy: 500_000), with: "é")
        let reversion = try #require(edited.reversion(to: original))
        let run = try #require(reversion.node as? RangeChange<String, String>)
        #expect(run.offset == 500_000)
        #expect(run.oldPart == "a" && run.newPart == "é")

        var value = edited
        try reversion.revert(&value)
        #expect(value == original)
    }

    @Test("Appending a byte to a megabyte of data keeps one byte")
    func megabyteData() throws {
        let original = Data(repeating: 7, count: 1_000_000)
        let edited = original + [8]
        let run = try #require(edited.reversion(to: original)?.node as? RangeChange<Data, Data>)
        #expect(run.oldPart.isEmpty && run.newPart == Data([8]))
    }

    @Test("A set keeps only the members added and removed")
    func set() throws {
        let original = Set(0..<10_000)
        var edited = original
        edited.remove(5)
        edited.insert(-1)
        let change = try #require(edited.reversion(to: original)?.node as? SetChange<Set<Int>, Int>)
        #expect(change.added == [-1] && change.removed == [5])
    }

    @Test("One edit in a ten-thousand-element identifiable array keeps that element's change")
    func identifiedArrayEdit() throws {
        let original = (0..<10_000).map { Item(id: $0, title: "Item \($0)", done: false, children: []) }
        var edited = original
        edited[6_000].title += "!"
        let change = try #require(edited.reversion(to: original)?.node as? IdentifiedArrayChange<[Item], Item>)
        #expect(change.edits.count == 1 && change.edits[0].newIndex == 6_000)
        #expect(change.structure == nil)
        let title = try #require(change.edits[0].node as? RangeChange<Item, String>)
        #expect(title.oldPart.isEmpty && title.newPart == "!")
    }

    @Test("A move stores two indices and an id; an insert stores the inserted element only")
    func identifiedArrayStructure() throws {
        let original = (0..<1_000).map { Item(id: $0, title: "Item \($0)", done: false, children: []) }
        var edited = original
        edited.insert(edited.remove(at: 10), at: 900)
        edited.insert(Item(id: -1, title: "new", done: false, children: []), at: 500)
        let change = try #require(edited.reversion(to: original)?.node as? IdentifiedArrayChange<[Item], Item>)
        let structure = try #require(change.structure)
        let stored = (structure.old + structure.new).filter { if case .stored = $0.source { true } else { false } }
        #expect(stored.count == 1)
        #expect(structure.old.count + structure.new.count == 3)
    }

    @Test("An insert into a long array of Equatable values stores the one element")
    func equatableArrayInsert() throws {
        let original = Array(0..<10_000)
        var edited = original
        edited.insert(42, at: 5_000)
        let change = try #require(edited.reversion(to: original)?.node as? ArrayDifferenceChange<[Int], Int>)
        #expect(change.insertions.count == 1 && change.removals.isEmpty)
    }
}
