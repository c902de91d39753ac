import Foundation
import Revertible

/// `tree-vs-array`: the basic operations of `TreeArray` against `Array` on N todo items.
///
/// Figures, in ns per operation: `read` (N reads of a field at seeded random positions),
/// `iterate` (one pass over all items, per item), `append` (N appends to an empty
/// collection, per append), `insert_front` and `remove_front` (K inserts at position 0, then
/// K removes there), and `by_id` (100 lookups of a position by id at seeded random items: a
/// scan of the `Array`, `index(id:)` of the tree, after one lookup that builds its index,
/// timed on its own as `id_index_ms`). Every pass sums what it reads, and the sums are
/// checked against each other, so nothing is optimized away.
struct TreeVersusArray: Scenario {

    static let read = FigureColumn(key: "read_ns", header: "read ns")
    static let iterate = FigureColumn(key: "iterate_ns", header: "iterate ns")
    static let append = FigureColumn(key: "append_ns", header: "append ns")
    static let insertFront = FigureColumn(key: "insert_front_ns", header: "insert@0 ns")
    static let removeFront = FigureColumn(key: "remove_front_ns", header: "remove@0 ns")
    static let byID = FigureColumn(key: "by_id_ns", header: "by id ns")
    static let indexBuild = FigureColumn(key: "id_index_ms", header: "id index ms")

    let name = "tree-vs-array"
    let impls = ["array", "tree"]
    let figures = [read, iterate, append, insertFront, removeFront, byID, indexBuild]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([10_000, 100_000, 1_000_000], [1_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        var generator = SeededGenerator(seed: seed)
        let items = TodoFixture.state(count: n, using: &generator).items
        let positions = (0..<n).map { _ in Int(generator.next(upperBound: UInt64(n))) }
        let expectedDone = positions.reduce(0) { $0 + (items[$1].isDone ? 1 : 0) }
        switch impl {
        case "array":
            var outcome = try measure([TodoItem](), items: items, positions: positions, expectedDone: expectedDone, k: k)
            try measureLookups(items: items, positions: positions, into: &outcome) { array, id in array.firstIndex { $0.id == id } }
            return outcome
        case "tree":
            var outcome = try measure(TreeArray<TodoItem>(), items: items, positions: positions, expectedDone: expectedDone, k: k)
            try measureLookups(items: TreeArray(items), positions: positions, into: &outcome) { tree, id in tree.index(id: id) }
            return outcome
        default: throw BenchmarkFailure("tree-vs-array has no implementation '\(impl)'")
        }
    }

    // Inlined into each call site, so that each collection is measured through concrete,
    // specialized code, as an app's code would be (a generic call measures witness tables).
    @inline(__always)
    private func measure<C: RandomAccessCollection & RangeReplaceableCollection>(
        _ empty: C, items: [TodoItem], positions: [Int], expectedDone: Int, k: Int
    ) throws(BenchmarkFailure) -> RunOutcome where C.Element == TodoItem, C.Index == Int {
        let n = items.count
        var collection = empty
        var appendTime = Stopwatch()
        appendTime.measure {
            for item in items { collection.append(item) }
        }
        try check(collection.count == n, "tree-vs-array: \(collection.count) items after \(n) appends")

        var readTime = Stopwatch()
        var done = 0
        readTime.measure {
            for position in positions where collection[position].isDone { done += 1 }
        }
        try check(done == expectedDone, "tree-vs-array: random reads found \(done) done items, not \(expectedDone)")

        var iterateTime = Stopwatch()
        var titleBytes = 0
        iterateTime.measure {
            for item in collection { titleBytes &+= item.title.utf8.count }
        }
        let expectedBytes = items.reduce(0) { $0 &+ $1.title.utf8.count }
        try check(titleBytes == expectedBytes, "tree-vs-array: iteration read \(titleBytes) title bytes, not \(expectedBytes)")

        var insertTime = Stopwatch()
        let extra = items.prefix(k)
        insertTime.measure {
            for item in extra { collection.insert(item, at: 0) }
        }
        var removeTime = Stopwatch()
        removeTime.measure {
            for _ in 0..<extra.count { collection.remove(at: 0) }
        }
        try check(collection.count == n && collection[0].id == items[0].id, "tree-vs-array: inserts and removes at the front did not cancel out")

        return .measured([
            Self.read.key: readTime.nanoseconds(per: n),
            Self.iterate.key: iterateTime.nanoseconds(per: n),
            Self.append.key: appendTime.nanoseconds(per: n),
            Self.insertFront.key: insertTime.nanoseconds(per: extra.count),
            Self.removeFront.key: removeTime.nanoseconds(per: extra.count),
        ])
    }

    /// Times 100 lookups of a position by id, after one untimed (the tree builds its index
    /// there, timed apart), and checks each position found.
    @inline(__always)
    private func measureLookups<C: RandomAccessCollection<TodoItem>>(
        items: C, positions: [Int], into outcome: inout RunOutcome, _ lookup: (C, UUID) -> Int?
    ) throws(BenchmarkFailure) where C.Index == Int {
        let targets = positions.prefix(100)
        let firstTarget = targets.first ?? 0
        var buildTime = Stopwatch()
        let first = buildTime.measure { lookup(items, items[firstTarget].id) }
        try check(first == firstTarget, "tree-vs-array: the first lookup by id found \(String(describing: first))")
        var lookupTime = Stopwatch()
        var found = 0
        lookupTime.measure {
            for position in targets where lookup(items, items[position].id) == position { found += 1 }
        }
        try check(found == targets.count, "tree-vs-array: \(found) of \(targets.count) lookups by id found their item")
        guard case let .measured(figures) = outcome else { return }
        var all = figures
        all[Self.byID.key] = lookupTime.nanoseconds(per: targets.count)
        all[Self.indexBuild.key] = buildTime.nanoseconds(per: 1) / 1_000_000
        outcome = .measured(all)
    }

    /// The targets at N = 1,000,000: tree / array read ≤ 4 and iterate ≤ 2 (issue 28, which
    /// replaced issue 13's read ≤ 3), append ≤ 3; array / tree insert and remove at the front
    /// ≥ 100.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        for n in Set(results.map(\.n)).sorted() {
            func value(_ impl: String, _ column: FigureColumn) -> Double? {
                results.first { $0.impl == impl && $0.n == n }?.figures[column.key]
            }
            let limit = n == 1_000_000
            for (column, bound) in [(Self.read, 4.0), (Self.iterate, 2.0), (Self.append, 3.0)] {
                if let tree = value("tree", column), let array = value("array", column), array > 0 {
                    checks.append(RatioCheck(target: "10", description: "tree / array \(column.header), N=\(n.grouped)", value: tree / array, limit: limit ? bound : nil))
                }
            }
            for column in [Self.insertFront, Self.removeFront] {
                if let tree = value("tree", column), let array = value("array", column), tree > 0 {
                    checks.append(RatioCheck(target: "10", description: "array / tree \(column.header), N=\(n.grouped)", value: array / tree, limit: limit ? 100 : nil, atLeast: true))
                }
            }
        }
        return checks
    }
}
