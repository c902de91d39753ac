import Foundation
import Revertible

/// `selective-undo`: undo when another writer changed the list (issue 24) against undo when
/// nobody did, on N todo items in a `TreeArray`, K steps each renaming one item at a seeded
/// random position.
///
/// Implementations: `plain` (nobody else wrote: the strict path), `shifted` (another writer
/// inserted an item at the front after the steps, absorbed: every step misses its position,
/// so each is applied selectively, its items found by id, with no conflict), `conflicting`
/// (another writer renamed each step's item again: every step is a conflict, skipped, and
/// keeps what was actually done, one comparison a step). Figure: ns per undo step. Each run
/// checks the titles undo leaves.
struct SelectiveUndo: Scenario {

    static let undo = FigureColumn(key: "undo_ns_per_step", header: "undo ns/step")

    let name = "selective-undo"
    let impls = ["plain", "shifted", "conflicting"]
    let figures = [undo]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [20]) : ([10_000, 1_000_000], [200])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        guard impls.contains(impl) else { throw BenchmarkFailure("selective-undo has no implementation '\(impl)'") }
        var generator = SeededGenerator(seed: seed)
        let items = TodoFixture.state(count: n, using: &generator).items
        var state = TreeTodoState(items: TreeArray(items))
        let controller = ValueVersioningController(state)
        var renamed: [Int] = []
        for step in 0..<k {
            let position = Int(generator.next(upperBound: UInt64(n)))
            state.items[position].title += " \(step)"
            controller.append(state)
            renamed.append(position)
        }
        switch impl {
        case "shifted":
            state.items.insert(TodoFixture.item(using: &generator), at: 0)
            controller.absorb(state)
        case "conflicting":
            for position in Set(renamed) {
                state.items[position].title += " (theirs)"
            }
            controller.absorb(state)
        default:
            break
        }

        var time = Stopwatch()
        var conflicts = 0
        var failed: HistoryError?
        time.measure {
            for _ in 0..<k {
                do throws(HistoryError) {
                    try controller.undo()
                } catch {
                    failed = error
                }
                conflicts += controller.lastConflicts.count
            }
        }
        try check(failed == nil, "selective-undo \(impl): undo failed: \(String(describing: failed))")
        let result = controller.currentVersion.items
        let shift = impl == "shifted" ? 1 : 0
        try check(result.count == n + shift, "selective-undo \(impl): \(result.count) items after undo, not \(n + shift)")
        for position in Set(renamed) {
            let expected = impl == "conflicting" ? state.items[position].title : items[position].title
            try check(result[position + shift].title == expected, "selective-undo \(impl): item \(position) is titled \(result[position + shift].title)")
        }
        try check(impl == "conflicting" ? conflicts > 0 : conflicts == 0, "selective-undo \(impl): \(conflicts) conflicts")
        return .measured([Self.undo.key: time.nanoseconds(per: k)])
    }

    /// The cost of selective undo against plain undo, per size (reported, no target).
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        for n in Set(results.map(\.n)).sorted() {
            func value(_ impl: String) -> Double? {
                results.first { $0.impl == impl && $0.n == n }?.figures[Self.undo.key]
            }
            guard let plain = value("plain"), plain > 0 else { continue }
            for impl in ["shifted", "conflicting"] {
                if let other = value(impl) {
                    checks.append(RatioCheck(target: "24", description: "\(impl) / plain undo, N=\(n.grouped)", value: other / plain, limit: nil))
                }
            }
        }
        return checks
    }
}
