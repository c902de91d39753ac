import Foundation
import Testing
import TestSupport
@testable import Revertible
// Invariant checks, capacities and the identity index: internal to the tree's module, not
// part of its seam with Revertible.
@testable import TreeArray

/// Checks the shape a ``TreeArray`` promises: counts and running ends agree with the
/// children, children sit one level lower, and no leaf below the root is empty.
func expectValidTree<Element>(_ tree: TreeArray<Element>, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
    func check(_ node: TreeArrayNode<Element>, isRoot: Bool) -> Bool {
        if node.isLeaf {
            return node.count == node.elements.count && (isRoot || !node.elements.isEmpty)
                && node.elements.count <= TreeArrayNode<Element>.leafCapacity
        }
        var total = 0
        for (position, child) in node.children.enumerated() {
            total += child.count
            guard child.height == node.height - 1, node.ends[position] == total, check(child, isRoot: false) else { return false }
        }
        return total == node.count && node.ends.count == node.children.count
            && node.children.count <= TreeArrayNode<Element>.branchCapacity && (!isRoot || node.children.count > 1)
    }
    #expect(check(tree.root, isRoot: true), "malformed tree, seed \(seed)", sourceLocation: sourceLocation)
    // The package's own check (order keys and last keys too); it traps on a malformed tree.
    tree._invariantCheck()
}

/// A row of a large list: small, identifiable, with a few fields to edit.
struct Row: Identifiable, Versionable, Codable, Sendable {
    let id: Int
    var title: String
    var done: Bool

    func addReversions(into reverter: inout some Reverter<Row>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.done)
    }
}

/// Random rows with ids that never repeat within one factory.
struct RowFactory {
    var random: SeededGenerator
    var nextID = 0

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func row() -> Row {
        nextID += 1
        return Row(id: nextID, title: random.string(maxLength: 8), done: random.chance(0.5))
    }

    mutating func rows(_ count: Int) -> [Row] {
        (0..<count).map { _ in row() }
    }

    /// One random change made through the tree's own mutations, so the result shares
    /// structure with `tree`: an edit, an insert, a remove, a move, or a run of them.
    mutating func change(_ tree: inout TreeArray<Row>) {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<35 where !tree.isEmpty:
            let index = Int.random(in: 0..<tree.count, using: &random)
            if random.chance(0.5) {
                tree[index].title = random.edited(tree[index].title)
            } else {
                tree[index].done.toggle()
            }
        case 35..<55:
            tree.insert(row(), at: Int.random(in: 0...tree.count, using: &random))
        case 55..<70 where !tree.isEmpty:
            tree.remove(at: Int.random(in: 0..<tree.count, using: &random))
        case 70..<85 where tree.count > 1:
            let element = tree.remove(at: Int.random(in: 0..<tree.count, using: &random))
            tree.insert(element, at: Int.random(in: 0...tree.count, using: &random))
        case 85..<92:
            let start = Int.random(in: 0...tree.count, using: &random)
            let end = Int.random(in: start...Swift.min(tree.count, start + 40), using: &random)
            tree.replaceSubrange(start..<end, with: rows(Int.random(in: 0...40, using: &random)))
        case 92..<96 where tree.count > 1:
            let start = Int.random(in: 0..<tree.count, using: &random)
            let end = Int.random(in: start...Swift.min(tree.count, start + 30), using: &random)
            tree[start..<end].reverse()
        default:
            tree.append(row())
        }
    }
}
