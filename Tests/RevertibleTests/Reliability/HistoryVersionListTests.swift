import Testing
@testable import Revertible

/// The versions each version leads to: inline while there is one, an array once a branch
/// is made, in the order redo prefers.
@Suite("History: the versions a version leads to")
struct HistoryVersionListTests {

    @Test("A straight history of steps keeps no array per step")
    func straightHistoryIsInline() {
        var history = History<String, NoAnnotation>("")
        for step in 0..<100 {
            history.record("v\(step)", annotation: NoAnnotation(), policy: HistoryPolicy())
        }
        #expect(history.scopes[0].children.count == 100)
        let inline = history.scopes[0].children.values.allSatisfy { $0.isInline }
        #expect(inline)
    }

    @Test("Appending, moving to the end and removing keep the order")
    func listOperations() {
        let (a, b, c) = (HistoryVersion(1), HistoryVersion(2), HistoryVersion(3))
        var list: HistoryVersionList = []
        #expect(list.isEmpty && list.isInline)
        list.append(a)
        #expect(Array(list) == [a] && list.isInline)
        list.append(b)
        list.append(c)
        #expect(Array(list) == [a, b, c] && !list.isInline)
        list.remove(at: 0)
        list.append(a)
        #expect(Array(list) == [b, c, a] && list.last == a)
        list.removeAll { $0 != c }
        #expect(Array(list) == [c] && list.isInline)
        #expect(list == HistoryVersionList([c]))
    }
}

@Suite("History: the table of the versions each version leads to")
struct HistoryChildrenTests {

    @Test("A straight history keeps one link per step and no list")
    func straightHistoryKeepsLinks() {
        var history = History<String, NoAnnotation>("")
        for step in 0..<100 {
            history.record("v\(step)", annotation: NoAnnotation(), policy: HistoryPolicy())
        }
        #expect(history.scopes[0].children.count == 100)
        #expect(history.scopes[0].children.listCount == 0)
    }

    @Test("Dropping the oldest parents, as the limit does, keeps the others' children")
    func droppingOldestParents() {
        var children = HistoryChildren()
        for version in 0..<100 as Range<UInt64> {
            children[HistoryVersion(version), default: []].append(HistoryVersion(version + 1))
        }
        children[HistoryVersion(70), default: []].append(HistoryVersion(200))
        for version in 0..<60 as Range<UInt64> {
            children[HistoryVersion(version)] = nil
            #expect(children.count == 99 - Int(version))
        }
        #expect((0..<60 as Range<UInt64>).allSatisfy { children[HistoryVersion($0)] == nil })
        #expect((60..<100 as Range<UInt64>).allSatisfy { version in
            let expected = version == 70 ? [HistoryVersion(71), HistoryVersion(200)] : [HistoryVersion(version + 1)]
            return children[HistoryVersion(version)].map(Array.init) == expected
        })
        #expect(children.listCount == 1)
    }

    @Test("Reads and writes agree with a dictionary", arguments: 0..<20)
    func agreesWithDictionary(seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var children = HistoryChildren()
        var model: [HistoryVersion: [HistoryVersion]] = [:]
        for _ in 0..<400 {
            let parent = HistoryVersion(generator.next() % 40)
            // A child is always newer than its parent, as in every history.
            let child = HistoryVersion(parent.rawValue + 1 + generator.next() % 20)
            switch generator.next() % 5 {
            case 0, 1:
                children[parent, default: []].append(child)
                model[parent, default: []].append(child)
            case 2:
                children[parent]?.removeAll { $0 == child }
                model[parent]?.removeAll { $0 == child }
            case 3:
                children[parent] = nil
                model[parent] = nil
            default:
                let list = (0..<generator.next() % 3).map { HistoryVersion($0 + 1 + parent.rawValue) }
                children[parent] = HistoryVersionList(list)
                model[parent] = list
            }
            for version in 0..<40 {
                let key = HistoryVersion(UInt64(version))
                #expect(children[key].map(Array.init) == model[key])
            }
            #expect(children.count == model.count)
            let entries = children.map { ($0.key, Array($0.value)) }.sorted { $0.0 < $1.0 }
            #expect(entries.map(\.0) == model.keys.sorted())
            #expect(entries.allSatisfy { model[$0.0] == $0.1 })
        }
    }
}

/// A small deterministic generator for the table's model test.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
