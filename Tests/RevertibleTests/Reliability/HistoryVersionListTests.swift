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
        // The chain of appends is one run, whatever its length.
        #expect(history.scopes[0].children.runCount == 1)
    }

    @Test("A branch inside a chain splits its run, and taking the branch away joins it again")
    func branchSplitsAndJoinsRun() {
        var children = HistoryChildren()
        for version in 0..<100 as Range<UInt64> {
            children[HistoryVersion(version), default: []].append(HistoryVersion(version + 1))
        }
        #expect(children.runCount == 1)
        children[HistoryVersion(50), default: []].append(HistoryVersion(200))
        #expect(children.runCount == 3)
        #expect(children[HistoryVersion(50)].map(Array.init) == [HistoryVersion(51), HistoryVersion(200)])
        #expect(children[HistoryVersion(49)].map(Array.init) == [HistoryVersion(50)])
        #expect(children[HistoryVersion(51)].map(Array.init) == [HistoryVersion(52)])
        #expect(children.layoutViolations().isEmpty)
        children[HistoryVersion(50)]?.removeAll { $0 == HistoryVersion(200) }
        #expect(children.runCount == 1)
        // A parent whose one child is not the next version starts a run of its own.
        children[HistoryVersion(30)] = [HistoryVersion(300)]
        #expect(children.runCount == 3)
        #expect(children[HistoryVersion(30)].map(Array.init) == [HistoryVersion(300)])
        #expect(children.count == 100)
        #expect(children.layoutViolations().isEmpty)
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
            // A child is always newer than its parent, as in every history; half the time it
            // is the next version, as along a chain of appends, so runs form, split and join.
            let child = HistoryVersion(parent.rawValue + 1 + (generator.next() % 2 == 0 ? 0 : generator.next() % 20))
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
            #expect(children.layoutViolations().isEmpty)
            let entries = children.map { ($0.key, Array($0.value)) }.sorted { $0.0 < $1.0 }
            #expect(entries.map(\.0) == model.keys.sorted())
            #expect(entries.allSatisfy { model[$0.0] == $0.1 })
        }
    }
}

@Suite("History: a step's record")
struct RecordedStepLayoutTests {

    @Test("A step without annotation keeps its parent and depth in 32 bits each: 56 bytes")
    func recordIs56Bytes() {
        #expect(MemoryLayout<RecordedStep<String, NoAnnotation>>.stride == 56)
    }

    @Test("A parent or depth past 32 bits, or a parent that is not older, reads back as set, with the authorship")
    func widePlacementRoundTrips() throws {
        var history = History<String, NoAnnotation>("")
        for step in 0..<3 {
            history.record("v\(step)", annotation: NoAnnotation(), policy: HistoryPolicy())
        }
        var step = try #require(history.scopes[0].steps.values.last)
        let version = step.version
        let ordinary = (parent: step.parent, depth: step.depth)
        #expect(ordinary.parent < version && step.placement == nil)
        let author = StepAuthorship(author: HistoryAuthor("ana"))
        step.authorship = author
        #expect(step.authorship === author && step.placement == nil)
        let cases: [(HistoryVersion, Int)] = [
            (HistoryVersion(version.rawValue + 7), 2),
            (version, 1 << 40),
            (ordinary.parent, -3),
            (HistoryVersion(0), Int(UInt32.max)),
        ]
        for (parent, depth) in cases {
            step.parent = parent
            step.depth = depth
            #expect(step.parent == parent && step.depth == depth && step.version == version)
            #expect(step.authorship === author)
        }
        var far = try #require(history.scopes[0].steps.values.last)
        far.depth = Int(UInt32.max) + 1
        #expect(far.placement != nil && far.depth == Int(UInt32.max) + 1 && far.parent == ordinary.parent)
        step.parent = ordinary.parent
        step.depth = ordinary.depth
        step.authorship = nil
        #expect(step.placement == nil && step.extras == nil)
        #expect(step.parent == ordinary.parent && step.depth == ordinary.depth)
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
