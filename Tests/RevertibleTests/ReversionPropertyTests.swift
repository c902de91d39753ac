import Foundation
import Testing
@testable import Revertible

/// Seeded random pairs for every supported type. Each failure names its seed.
@Suite("Reversion properties")
struct ReversionPropertyTests {

    static let seeds: [UInt64] = Array(1...300)

    @Test("Leaves: integers of every width, floating point, Bool, UUID, Date, Decimal, optionals", arguments: [UInt64](1...20))
    func leaves(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<20 {
            checkLeaf(Int.random(in: -3...3, using: &random), Int.random(in: -3...3, using: &random), seed)
            checkLeaf(Int8.random(in: .min ... .max, using: &random), Int8.random(in: -2...2, using: &random), seed)
            checkLeaf(Int16.random(in: -2...2, using: &random), Int16.random(in: -2...2, using: &random), seed)
            checkLeaf(Int32.random(in: -2...2, using: &random), Int32.random(in: -2...2, using: &random), seed)
            checkLeaf(Int64.random(in: -2...2, using: &random), Int64.random(in: -2...2, using: &random), seed)
            checkLeaf(UInt.random(in: 0...3, using: &random), UInt.random(in: 0...3, using: &random), seed)
            checkLeaf(UInt8.random(in: 0...3, using: &random), UInt8.random(in: 0...3, using: &random), seed)
            checkLeaf(UInt16.random(in: 0...3, using: &random), UInt16.random(in: 0...3, using: &random), seed)
            checkLeaf(UInt32.random(in: 0...3, using: &random), UInt32.random(in: 0...3, using: &random), seed)
            checkLeaf(UInt64.random(in: 0...3, using: &random), UInt64.random(in: 0...3, using: &random), seed)
            checkLeaf(Double(Int.random(in: 0...3, using: &random)) / 2, Double(Int.random(in: 0...3, using: &random)) / 2, seed)
            checkLeaf(Float(Int.random(in: 0...3, using: &random)), Float(Int.random(in: 0...3, using: &random)), seed)
            checkLeaf(Bool.random(using: &random), Bool.random(using: &random), seed)
            checkLeaf(random.chance(0.5) ? UUID() : nil, random.chance(0.5) ? UUID() : nil, seed)
            checkLeaf(Date(timeIntervalSince1970: Double(Int.random(in: 0...2, using: &random))), Date(timeIntervalSince1970: 1), seed)
            checkLeaf(Decimal(Int.random(in: 0...2, using: &random)), Decimal(Int.random(in: 0...2, using: &random)), seed)
            checkLeaf(random.chance(0.5) ? nil : Int.random(in: 0...1, using: &random), random.chance(0.5) ? nil : 1, seed)
        }
    }

    private func checkLeaf<Value: Equatable>(_ a: Value, _ b: Value, _ seed: UInt64) {
        let box = Leaf(value: a)
        expectReversionLaws(from: box, to: Leaf(value: b), seed: seed)
        if a != b, let reversion = Leaf(value: b).reversion(to: box) {
            expectRejects(reversion, wrong: box, seed: seed)
        }
    }

    @Test("NaN reverts to NaN")
    func notANumber() throws {
        let a = Leaf(value: Double.nan)
        var b = Leaf(value: 1.0)
        let reversion = try #require(b.reversion(to: a))
        try reversion.revert(&b)
        #expect(b.value.isNaN)
        try reversion.inverted.revert(&b)
        #expect(b.value == 1)
    }

    @Test("Strings, with multi-byte scalars and grapheme clusters", arguments: seeds)
    func strings(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let a = random.string(maxLength: 30)
        let b = random.chance(0.8) ? random.edited(a) : random.string(maxLength: 30)
        expectReversionLaws(from: a, to: b, seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        expectRejects(reversion, wrong: b + "x", seed: seed)
        // Same length, different bytes inside the replaced run.
        let run = reversion.node as! RangeChange<String, String>
        if !run.newPart.isEmpty {
            var bytes = Array(b.utf8)
            let flipped = run.newPart.utf8.map { $0 == UInt8(ascii: "q") ? UInt8(ascii: "r") : UInt8(ascii: "q") }
            bytes.replaceSubrange(run.offset ..< run.offset + flipped.count, with: flipped)
            expectRejects(reversion, wrong: String(decoding: bytes, as: UTF8.self), seed: seed)
        }
    }

    @Test("Data", arguments: seeds)
    func data(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let a = Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) })
        var b = a
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let start = Int.random(in: 0...b.count, using: &random)
            let end = Int.random(in: start...b.count, using: &random)
            b.replaceSubrange(start..<end, with: (0..<Int.random(in: 0...4, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) })
        }
        expectReversionLaws(from: a, to: b, seed: seed)
        expectReversionLaws(from: a.dropFirst(min(2, a.count)), to: b, seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        expectRejects(reversion, wrong: b + [9], seed: seed)
    }

    @Test("Sets", arguments: seeds)
    func sets(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let a = Set((0..<Int.random(in: 0...10, using: &random)).map { _ in Int.random(in: 0..<15, using: &random) })
        var b = a
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let member = Int.random(in: 0..<15, using: &random)
            if b.contains(member) { b.remove(member) } else { b.insert(member) }
        }
        expectReversionLaws(from: a, to: b, seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        var wrong = b
        if let added = b.subtracting(a).first { wrong.remove(added); wrong.insert(99) } else { wrong.insert(a.subtracting(b).first!); wrong.remove(wrong.first { !a.contains($0) } ?? -1) }
        if wrong != b { expectRejects(reversion, wrong: wrong, seed: seed) }
    }

    @Test("Arrays of Equatable values", arguments: seeds)
    func equatableArrays(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let a = (0..<Int.random(in: 0...12, using: &random)).map { _ in Int.random(in: 0..<4, using: &random) }
        var b = a
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            if !b.isEmpty, random.chance(0.4) { b.remove(at: Int.random(in: 0..<b.count, using: &random)) }
            if random.chance(0.5) { b.insert(Int.random(in: 0..<4, using: &random), at: Int.random(in: 0...b.count, using: &random)) }
            if random.chance(0.2) { b.shuffle(using: &random) }
        }
        expectReversionLaws(from: a, to: b, seed: seed)
        expectReversionLaws(from: Scores(values: a.map(NotHashable.init)), to: Scores(values: b.map(NotHashable.init)), seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        expectRejects(reversion, wrong: b + [7], seed: seed)
    }

    @Test("Identifiable arrays: inserts, removes, moves, permutations and nested edits", arguments: seeds)
    func identifiedArrays(seed: UInt64) {
        var factory = BoardFactory(seed: seed)
        let a = (0..<Int.random(in: 0...10, using: &factory.random)).map { _ in factory.item() }
        var b = a
        for _ in 0..<Int.random(in: 1...3, using: &factory.random) {
            b = factory.editItems(b)
        }
        expectReversionLaws(from: a, to: b, seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        expectRejects(reversion, wrong: b + [factory.item()], seed: seed)
    }

    @Test("Reversing an identifiable array restores the exact order")
    func reversedOrder() throws {
        let a = Activity.mock(count: 4)
        var b = a
        b.reverse()
        let reversion = try #require(b.reversion(to: a))
        try reversion.revert(&b)
        #expect(b.map(\.id) == a.map(\.id))
    }

    @Test("Repeated ids fall back to replacing the changed window, still exactly")
    func repeatedIDs() throws {
        let shared = Activity.mock(title: "twin")
        let a = [shared, Activity.mock(), shared]
        let b = [shared, shared, Activity.mock(title: "new")]
        expectReversionLaws(from: a, to: b, seed: 0)
    }

    @Test("Dictionaries of identifiable values", arguments: seeds)
    func dictionaries(seed: UInt64) {
        var factory = BoardFactory(seed: seed)
        var a: [String: Item] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &factory.random) { a[factory.random.string(maxLength: 2)] = factory.item() }
        var b = a
        for _ in 0..<Int.random(in: 0...4, using: &factory.random) {
            let key = factory.random.string(maxLength: 2)
            switch Int.random(in: 0..<3, using: &factory.random) {
            case 0: b[key] = nil
            case 1: b[key] = factory.item()
            default: if let existing = b.keys.randomElement(using: &factory.random) { b[existing]!.title += "!" }
            }
        }
        expectReversionLaws(from: a, to: b, seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        expectRejects(reversion, wrong: b.merging(["new key": factory.item()]) { $1 }, seed: seed)
    }

    @Test("Nested model: enum, identifiable children, set, dictionary, optionals, long strings", arguments: [UInt64](1...1000))
    func nestedModel(seed: UInt64) {
        var factory = BoardFactory(seed: seed)
        let a = factory.board()
        let b = factory.random.chance(0.05) ? a : factory.edit(a)
        expectReversionLaws(from: a, to: b, seed: seed)
        guard let reversion = b.reversion(to: a) else { return }
        for wrong in wrongVersions(of: b, at: reversion.changedKeyPaths) {
            expectRejects(reversion, wrong: wrong, seed: seed)
        }
    }

    /// For each written key path of a type we know, a copy of `board` changed exactly there.
    private func wrongVersions(of board: Board, at paths: [PartialKeyPath<Board>]) -> [Board] {
        paths.compactMap { path in
            var wrong = board
            switch path {
            case let path as WritableKeyPath<Board, String>: wrong[keyPath: path] += "†"
            case let path as WritableKeyPath<Board, String?>: wrong[keyPath: path] = (wrong[keyPath: path] ?? "") + "†"
            case let path as WritableKeyPath<Board, Bool>: wrong[keyPath: path].toggle()
            case let path as WritableKeyPath<Board, Double?>: wrong[keyPath: path] = (wrong[keyPath: path] ?? 0) + 0.5
            case let path as WritableKeyPath<Board, [Item]>: wrong[keyPath: path].append(Item(id: -1, title: "", done: false, children: []))
            case let path as WritableKeyPath<Board, Set<String>>: wrong[keyPath: path].insert("†")
            case let path as WritableKeyPath<Board, Data>: wrong[keyPath: path].append(0)
            case let path as WritableKeyPath<Board, [Int]>: wrong[keyPath: path].append(-1)
            case let path as WritableKeyPath<Board, Mode>: wrong[keyPath: path] = wrong[keyPath: path] == .idle ? .reviewing(since: nil) : .idle
            default: return nil
            }
            return wrong
        }
    }

    @Test("A wrong version at one of many written paths leaves every path untouched")
    func allOrNothing() throws {
        var factory = BoardFactory(seed: 42)
        let a = factory.board()
        var b = a
        b.name += "1"
        b.body += "2"
        b.scores.append(3)
        let reversion = try #require(b.reversion(to: a))
        #expect(reversion.changedKeyPaths.count == 3)
        var wrong = b
        wrong.scores.append(4)
        expectRejects(reversion, wrong: wrong, seed: 42)
    }
}

/// Wraps a leaf so it is registered through the generic `Equatable` overload.
struct Leaf<Value: Equatable>: Versionable {
    var value: Value

    static func == (lhs: Self, rhs: Self) -> Bool { matches(lhs.value, rhs.value) }
    func hash(into hasher: inout Hasher) {}

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.value)
    }
}

struct NotHashable: Equatable {
    var value: Int
}

/// Registers an array of non-`Hashable` elements, which goes through the collection-difference
/// overload.
struct Scores: Versionable {
    var values: [NotHashable]

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.values == rhs.values }
    func hash(into hasher: inout Hasher) { hasher.combine(values.count) }

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.values)
    }
}
