import Foundation
import Testing
import TestSupport
@testable import Revertible
// Invariant checks, capacities and the identity index: internal to the tree's module, not
// part of its seam with Revertible.
@testable import TreeArray

/// The reversion laws for `TreeArray`, as identifiable arrays are covered in
/// `ReversionPropertyTests`, plus what can be said about cost without timing.
///
/// No history records here: a reversion between two versions is what comparing finds, the
/// same in either recording mode. The random runs of a history in both modes (issue 39) are
/// `TreeArrayHistoryTests` and `TreeArrayUndoAmongWritersTests`.
@Suite("TreeArray: reversions")
struct TreeArrayReversionTests {

    @Test("Random pairs: nil exactly when equal, reverts exactly, redoes, refuses wrong versions",
          arguments: RandomizedTesting.seeds(defaultIterations: 300))
    func randomPairs(seed: UInt64) {
        var factory = RowFactory(seed: seed)
        let size = [0, 1, 5, 40, 200, 1_500][Int.random(in: 0..<6, using: &factory.random)]
        let a = TreeArray(factory.rows(size))
        var b = a
        for _ in 0..<Int.random(in: 0...6, using: &factory.random) {
            factory.change(&b)
        }
        expectValidTree(b, seed: seed)
        expectReversionLaws(from: a, to: b, seed: seed)
        // The same contents in chunks shared with nothing: compared element by element.
        expectReversionLaws(from: a, to: TreeArray(Array(b)), seed: seed)
        // Equal versions with no node in common.
        #expect(TreeArray(Array(a)).reversion(to: a) == nil, "seed \(seed)")
        guard let reversion = b.reversion(to: a) else { return }
        var wrong = b
        wrong.append(factory.row())
        expectRejects(reversion, wrong: wrong, seed: seed)
        // Wrong at a written location: every edited or moved element carries a new id.
        if !b.isEmpty, let path = reversion.changedKeyPaths.first {
            _ = path
            var other = b
            let index = Int.random(in: 0..<b.count, using: &factory.random)
            other[index].title += "!"
            var value = other
            if (try? reversion.revert(&value)) == nil {
                #expect(value == other, "a failed revert changed the tree, seed \(seed)")
            }
        }
    }

    @Test("Reversing restores the exact order")
    func reversedOrder() throws {
        var factory = RowFactory(seed: 11)
        let a = TreeArray(factory.rows(300))
        var b = a
        b.reverse()
        let reversion = try #require(b.reversion(to: a))
        try reversion.revert(&b)
        #expect(b.map(\.id) == a.map(\.id))
    }

    @Test("Repeated ids fall back to replacing the changed window, still exactly")
    func repeatedIDs() {
        let twin = Row(id: 1, title: "twin", done: false)
        let a: TreeArray = [twin, Row(id: 2, title: "b", done: true), twin]
        let b: TreeArray = [twin, twin, Row(id: 3, title: "new", done: false)]
        expectReversionLaws(from: a, to: b, seed: 0)
    }

    @Test("Editing one element of 100,000 visits O(log n) nodes, and so do inserts and removes")
    func comparisonSkipsSharedNodes() {
        var factory = RowFactory(seed: 5)
        let a = TreeArray(factory.rows(100_000))
        let depth = a.root.height + 1
        // Per level: the shared siblings skipped from both ends of a node, at most a branch's width.
        let bound = depth * (2 * TreeArrayNode<Row>.branchCapacity + 4)

        var edited = a
        edited[61_803].title = "edited"
        #expect(edited.nodesVisitedComparing(with: a) <= bound)
        #expect(edited.reversion(to: a)?.changedKeyPaths.count == 1)

        var inserted = a
        inserted.insert(factory.row(), at: 31_415)
        #expect(inserted.nodesVisitedComparing(with: a) <= 2 * bound)

        var removed = a
        removed.remove(at: 27_182)
        #expect(removed.nodesVisitedComparing(with: a) <= 2 * bound)

        var both = edited
        both.insert(factory.row(), at: 0)
        both.remove(at: 99_000)
        #expect(both.nodesVisitedComparing(with: a) <= 6 * bound)
        expectReversionLaws(from: a, to: both, seed: 0)

        let copy = a
        #expect(copy.nodesVisitedComparing(with: a) == 0)
    }

    @Test("Undo writes one path: the undone tree shares every other node with the version before")
    func undoWritesOnePath() throws {
        var factory = RowFactory(seed: 9)
        let a = TreeArray(factory.rows(50_000))
        var b = a
        b[40_000].done.toggle()
        let reversion = try #require(b.reversion(to: a))
        let before = b
        try reversion.revert(&b)
        #expect(b == a)
        let shared = zip(b.root.children, before.root.children).filter { $0 === $1 }.count
        #expect(shared == before.root.children.count - 1)
    }
}

/// Comparing's cost, so every step here is recorded by comparing (`record`), not journaled.
///
/// The history's own copy of the current version is advanced by applying each step; where it
/// then holds the very same values as the caller's, it shares the caller's nodes, and else
/// links them as twins, so the next comparison still visits only the path of the new change.
@Suite("TreeArray: recording many steps")
struct TreeArrayRecordingTests {

    @Test("The hundredth recorded edit compares as few nodes as the first")
    func comparisonsStayLogarithmic() {
        var factory = RowFactory(seed: 21)
        var document = RowDocument(name: "list", rows: TreeArray(factory.rows(100_000)))
        var history = History<RowDocument, NoAnnotation>(document)
        let bound = (document.rows.root.height + 1) * (2 * TreeArrayNode<Row>.branchCapacity + 4)
        for step in 0..<100 {
            let index = Int.random(in: 0..<document.rows.count, using: &factory.random)
            document.rows[index].title = "edit \(step)"
            let visited = document.rows.nodesVisitedComparing(with: history.current.rows)
            #expect(visited <= bound, "step \(step) visited \(visited) nodes")
            history.record(document, annotation: NoAnnotation(), policy: HistoryPolicy())
            #expect(history.current == document)
        }
        // A twin changed in place after the link is compared again, not trusted.
        var copy = document
        copy.rows[5].done.toggle()
        #expect(copy.rows.reversion(to: history.current.rows) != nil)
        #expect(history.current.rows.reversion(to: document.rows) == nil)
    }
}

/// A row whose stored properties leave padding between them (a `Bool` before a `String`): a
/// copy writes the properties, not the padding.
struct PaddedRow: Identifiable, Versionable, Sendable, Equatable {
    let id: Int
    var done: Bool
    var title: String
    var notes: String

    func addReversions(into reverter: inout some Reverter<PaddedRow>) {
        reverter.appendReversion(at: \.done)
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.notes)
    }
}

/// What a recorded step keeps: its reversion, and no node of its own. The history's copy of
/// the present shares the present's nodes whenever they hold the very same values.
@Suite("TreeArray: a recorded step keeps no node")
struct TreeArraySharingTests {

    static func rows(_ count: Int) -> TreeArray<PaddedRow> {
        TreeArray((0..<count).map { PaddedRow(id: $0, done: false, title: "row number \($0) of the list", notes: "") })
    }

    /// How many nodes of `tree` are not nodes of `other`.
    static func privateNodes<Element>(of tree: TreeArray<Element>, besides other: TreeArray<Element>) -> Int {
        var theirs = Set<ObjectIdentifier>()
        func collect(_ node: TreeArrayNode<Element>) {
            guard theirs.insert(ObjectIdentifier(node)).inserted else { return }
            node.children.forEach(collect)
        }
        collect(other.root)
        func count(_ node: TreeArrayNode<Element>) -> Int {
            theirs.contains(ObjectIdentifier(node)) ? 0 : 1 + node.children.reduce(0) { $0 + count($1) }
        }
        return count(tree.root)
    }

    @Test("After each recorded edit, insert, remove or move, the history's copy is the present's nodes")
    func historySharesThePresent() throws {
        var rows = Self.rows(20_000)
        var history = History<TreeArray<PaddedRow>, NoAnnotation>(rows)
        var random = SeededGenerator(seed: 5)
        for step in 0..<200 {
            let index = Int.random(in: 0..<rows.count, using: &random)
            switch step % 7 {
            case 0: rows[index].title += " (edited \(step))"
            case 1: rows[index].done.toggle()
            case 2: rows[index].title = "renamed \(step)"; rows[index].notes = "a note longer than fifteen bytes \(step)"
            case 3: rows[index].notes += "+"
            case 4: rows.insert(PaddedRow(id: 100_000 + step, done: true, title: "inserted at step \(step)", notes: ""), at: index)
            case 5: rows.remove(at: index)
            default: rows.insert(rows.remove(at: index), at: Int.random(in: 0..<rows.count, using: &random))
            }
            history.record(rows, annotation: NoAnnotation(), policy: HistoryPolicy())
            #expect(history.current.root === rows.root, "step \(step): \(Self.privateNodes(of: history.current, besides: rows)) private nodes")
        }
        #expect(try history.undo(&rows, to: .steps(200)) == 200)
        #expect(rows == Self.rows(20_000))
    }

    @Test("A step that also changes another property (several changes in one) still keeps no node")
    func sharedThroughSeveralChanges() throws {
        var factory = RowFactory(seed: 8)
        var document = RowDocument(name: "list", rows: TreeArray(factory.rows(5_000)))
        let first = document
        var history = History<RowDocument, NoAnnotation>(document)
        for step in 0..<50 {
            document.name = "list \(step)"
            document.rows[Int.random(in: 0..<document.rows.count, using: &factory.random)].title = "edit \(step)"
            history.record(document, annotation: NoAnnotation(), policy: HistoryPolicy())
            #expect(history.current.rows.root === document.rows.root, "step \(step)")
        }
        #expect(try history.undo(&document, to: .steps(50)) == 50)
        #expect(document == first)
    }

    @Test("A string re-spelled without a step keeps its leaf out of the history's copy, and older steps undoable")
    func respelledStringIsNotShared() throws {
        var rows = Self.rows(2_000)
        rows[100].title = "caf\u{E9} au lait, a long enough title"
        var history = History<TreeArray<PaddedRow>, NoAnnotation>(rows)
        rows[100].notes = "first"
        history.record(rows, annotation: NoAnnotation(), policy: HistoryPolicy())
        #expect(history.current.root === rows.root)
        // Equal under canonical equivalence: no step records it, and the history must keep
        // the spelling its steps were made against, so it cannot take the caller's leaf.
        rows[100].title = "cafe\u{301} au lait, a long enough title"
        rows[101].notes = "second"
        history.record(rows, annotation: NoAnnotation(), policy: HistoryPolicy())
        #expect(history.current.root !== rows.root)
        #expect(Array(history.current[100].title.utf8) == Array("caf\u{E9} au lait, a long enough title".utf8))
        // The edit next to the re-spelling: the edited string itself re-spelled the same way.
        rows[101].notes = "third"
        rows[100].notes = "first, again"
        history.record(rows, annotation: NoAnnotation(), policy: HistoryPolicy())
        #expect(history.current.root !== rows.root)
        var value = history.current
        #expect(try history.undo(&value, to: .steps(3)) == 3)
        #expect(value[100].notes == "" && value[101].notes == "")
    }
}
