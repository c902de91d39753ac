import Foundation

/// `edit-title`: K single-title edits at random positions of an N-item todo state, each
/// recorded as an undo step; then undo all K, then redo all K.
///
/// Figures per step: `append_ns_per_step` (the edit plus recording it), `undo_ns_per_step`,
/// `redo_ns_per_step`, and `history_bytes_per_step` (heap still in use after the K appends
/// minus before them, over K). Implementations: this package (`revertible`), full snapshots
/// (`snapshot`) and this package plus whole-value hashing (`whole-hash`, the seed design), and this package on
/// the items in a `TreeArray` (`revertible-tree`), the same with each edit made in a
/// transaction whose writes to the tree are recorded as they are made
/// (`revertible-tree-transaction`).
struct EditTitle: Scenario {

    static let histories: [any TitleHistory.Type] = [
        RevertibleTitleHistory.self,
        SnapshotTitleHistory.self,
        WholeHashTitleHistory.self,
        TreeRevertibleTitleHistory.self,
        TransactionTitleHistory.self,
    ]

    static let append = FigureColumn(key: "append_ns_per_step", header: "append ns/step")
    static let undo = FigureColumn(key: "undo_ns_per_step", header: "undo ns/step")
    static let redo = FigureColumn(key: "redo_ns_per_step", header: "redo ns/step")
    static let historyBytes = FigureColumn(key: "history_bytes_per_step", header: "history B/step")
    /// The same, from the heap after the first append: what each further step adds, without
    /// the one-time cost of whatever the first append keeps (the controller's own copy of
    /// the state, for `revertible`).
    static let marginalBytes = FigureColumn(key: "marginal_history_bytes_per_step", header: "marginal B/step")

    let name = "edit-title"
    let impls = histories.map { $0.name }
    let figures = [append, undo, redo, historyBytes, marginalBytes]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([1_000, 10_000, 100_000], [1_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        let history = try Self.history(named: impl)
        // Snapshots of 100,000 items times 10,000 steps would need tens of gigabytes: skip
        // rather than take a machine shared with others into swapping or the OOM killer.
        let estimate = history.estimatedHistoryBytes(n: n, k: k)
        let budget = Int(ProcessInfo.processInfo.physicalMemory / 2)
        if estimate > budget {
            return .skipped(reason: "would keep ~\(estimate >> 30) GiB of history, over half of this machine's memory")
        }
        return .measured(try EditTitleRun.measure(history, n: n, k: k, seed: seed))
    }

    func warmUp(impl: String, seed: UInt64) throws(BenchmarkFailure) {
        _ = try EditTitleRun.measure(Self.history(named: impl), n: 200, k: 50, seed: seed)
    }

    private static func history(named name: String) throws(BenchmarkFailure) -> any TitleHistory.Type {
        guard let history = histories.first(where: { $0.name == name }) else {
            throw BenchmarkFailure("edit-title has no implementation '\(name)'")
        }
        return history
    }
}
