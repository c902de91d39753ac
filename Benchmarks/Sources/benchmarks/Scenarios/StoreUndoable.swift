import Foundation
import Revertible
import UndoableReducer

/// `store-undoable`: a `Store` running the todo reducer, sent K mixed actions (edits, toggles,
/// adds, removes, undos, redos) on an N-item state.
///
/// Figures: `ns_per_action` (sending one action, state updated when `send` returns) and
/// `history_bytes_per_step` (heap still in use after the K actions minus before, over K: the
/// history and whatever the present's storage gained), and, for `undoable` and
/// `undoable-tree`, `history_freed_bytes_per_step` (the heap that dropping the history at the
/// end frees, over K: the history alone, the present kept).
/// Implementations: `undoable` (this package), `snapshot-undoable` (a redux-undo-style
/// higher-order reducer keeping past and future as full states) and `plain` (the reducer
/// alone, no history: the floor; undo and redo are sent as a no-op action); `undoable-tree` and
/// `plain-tree` are the same on the items in a `TreeArray`. `plain-tree-shared` is `plain-tree`
/// with one more copy of the state kept and moved to each new state after its action, as a
/// history's own copy of the present is: every write copies the path of chunks the copy
/// shares, and moving the copy frees the old path. It is the floor of any history that keeps
/// such a copy while the reducer runs (issue 39). `undoable-tree-selecting` is `undoable-tree`
/// on a state that also keeps the position of the item last edited or toggled, so those
/// actions write the tree and another property in one run.
struct StoreUndoable: Scenario {

    static let nsPerAction = FigureColumn(key: "ns_per_action", header: "ns/action")
    static let historyBytes = FigureColumn(key: "history_bytes_per_step", header: "history B/step")
    static let freedBytes = FigureColumn(key: "history_freed_bytes_per_step", header: "freed B/step")

    let name = "store-undoable"
    let impls = ["undoable", "snapshot-undoable", "plain", "undoable-tree", "plain-tree", "plain-tree-shared", "undoable-tree-selecting"]
    let figures = [nsPerAction, historyBytes, freedBytes]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([1_000, 10_000], [1_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        if impl == "snapshot-undoable" {
            // A full copy of the items per step: skip where that would not fit.
            let estimate = k * n * MemoryLayout<TodoItem>.stride
            if estimate > Int(ProcessInfo.processInfo.physicalMemory / 2) {
                return .skipped(reason: "would keep ~\(estimate >> 30) GiB of snapshots, over half of this machine's memory")
            }
        }
        var generator = SeededGenerator(seed: seed)
        let initial = TodoFixture.state(count: n, using: &generator).items
        let plan = StoreUndoablePlan(count: k, size: n, using: &generator)
        switch impl {
        case "undoable": return try runUndoable(TodoState.self, impl: impl, initial: initial, plan: plan, k: k)
        case "undoable-tree": return try runUndoable(TreeTodoState.self, impl: impl, initial: initial, plan: plan, k: k)
        case "undoable-tree-selecting": return try runUndoable(SelectingTreeTodoState.self, impl: impl, initial: initial, plan: plan, k: k)
        case "plain": return try runPlain(TodoState.self, impl: impl, initial: initial, plan: plan, k: k)
        case "plain-tree": return try runPlain(TreeTodoState.self, impl: impl, initial: initial, plan: plan, k: k)
        case "plain-tree-shared": return try runPlain(TreeTodoState.self, impl: impl, initial: initial, plan: plan, k: k, keepingACopy: true)
        case "snapshot-undoable":
            let reducer = SnapshotUndoable(base: BenchmarkTodos<TodoState>())
            let store = Store(initialState: SnapshotUndoable<BenchmarkTodos<TodoState>>.State(present: TodoState(detached: initial)), reducer: reducer)
            let figures = measure(plan, k: k) { step in
                switch step {
                case let .base(action): store.send(.action(action))
                case .undo: store.send(.undo)
                case .redo: store.send(.redo)
                }
            }
            try check(store.state.present.items == plan.expectedItems(from: initial), "snapshot-undoable: wrong final state")
            return .measured(figures)
        default:
            throw BenchmarkFailure("store-undoable has no implementation '\(impl)'")
        }
    }

    /// This package's `undoable` over the plain reducer, on `State`. The final state is checked
    /// against the plan's reference; then one undo and one redo are spot-checked: the undo
    /// must change the state and the redo bring back exactly the final one.
    private func runUndoable<State: TodoCollectionState & Versionable>(
        _: State.Type, impl: String, initial: [TodoItem], plan: StoreUndoablePlan, k: Int
    ) throws(BenchmarkFailure) -> RunOutcome {
        let store = Store(initialState: UndoableState(State(detached: initial)), reducer: BenchmarkTodos<State>().undoable())
        var figures = measure(plan, k: k) { step in
            switch step {
            case let .base(action): store.send(.action(action))
            case .undo: store.send(.undo)
            case .redo: store.send(.redo)
            }
        }
        let expected = plan.expectedItems(from: initial)
        let final = store.state.present
        try check(final.itemArray == expected, "\(impl): wrong final state")
        if store.state.hasUndo {
            store.send(.undo)
            try check(store.state.present != final && store.state.error == nil, "\(impl): undo after the run did not change the state")
            store.send(.redo)
            try check(store.state.present == final && store.state.error == nil, "\(impl): redo after undo did not restore the final state")
        }
        // The history alone: `history_bytes_per_step` also counts what the present's storage
        // gained, which differs with how its writes were made (in place, or into copies).
        if let withHistory = HeapMeter.bytesInUse() {
            store.send(.history(.removeAllVersions))
            try check(!store.state.hasUndo && store.state.present == final, "\(impl): dropping the history changed the present")
            if let without = HeapMeter.bytesInUse() {
                figures[Self.freedBytes.key] = Double(withHistory - without) / Double(k)
            }
        }
        return .measured(figures)
    }

    /// The reducer alone on `State`, undo and redo sent as no-ops: the floor. With
    /// `keepingACopy`, a copy of the state shares its storage while each action runs and then
    /// moves to the new state, as a history's copy of the present does.
    private func runPlain<State: TodoCollectionState>(
        _: State.Type, impl: String, initial: [TodoItem], plan: StoreUndoablePlan, k: Int, keepingACopy: Bool = false
    ) throws(BenchmarkFailure) -> RunOutcome {
        let store = Store(initialState: State(detached: initial), reducer: BenchmarkTodos<State>())
        var kept = keepingACopy ? store.state : nil
        let figures = measure(plan, k: k) { step in
            switch step {
            case let .base(action):
                store.send(action)
                if keepingACopy { kept = store.state }
            case .undo, .redo: store.send(.noop)
            }
        }
        try check(!keepingACopy || kept?.itemArray == store.state.itemArray, "\(impl): the kept copy is not the last state")
        var expected = initial
        let reducer = BenchmarkTodos<TodoState>()
        var state = TodoState(items: [])
        swap(&state.items, &expected)
        for case let .base(action) in plan.steps { _ = reducer.reduce(into: &state, action: action) }
        try check(store.state.itemArray == state.items, "\(impl): wrong final state")
        return .measured(figures)
    }

    private func measure(_ plan: StoreUndoablePlan, k: Int, send: (StoreUndoablePlan.Step) -> Void) -> [String: Double] {
        var stopwatch = Stopwatch()
        let heapBefore = HeapMeter.bytesInUse()
        stopwatch.measure {
            for step in plan.steps { send(step) }
        }
        let heapAfter = HeapMeter.bytesInUse()
        var figures = [Self.nsPerAction.key: stopwatch.nanoseconds(per: k)]
        if let heapBefore, let heapAfter {
            figures[Self.historyBytes.key] = Double(heapAfter - heapBefore) / Double(k)
        }
        return figures
    }

    private func check(_ condition: Bool, _ message: String) throws(BenchmarkFailure) {
        guard condition else { throw BenchmarkFailure(message) }
    }

    func warmUp(impl: String, seed: UInt64) throws(BenchmarkFailure) {
        _ = try run(impl: impl, n: 200, k: 50, seed: seed)
    }

    /// Target 6: `undoable` against `snapshot-undoable` at N = 10,000, ≤ 1.5 × the time and
    /// ≤ 1/100 of the memory; and both against `plain`, for information.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        func value(_ impl: String, _ n: Int, _ k: Int, _ column: FigureColumn) -> Double? {
            results.first { $0.impl == impl && $0.n == n && $0.k == k }?.figures[column.key]
        }
        var checks: [RatioCheck] = []
        func add(_ target: String, _ description: String, _ numerator: Double?, _ denominator: Double?, limit: Double?) {
            guard let numerator, let denominator, denominator > 0 else { return }
            checks.append(RatioCheck(target: target, description: description, value: numerator / denominator, limit: limit))
        }
        for k in Set(results.map(\.k)).sorted() {
            add("6", "undoable / snapshot-undoable ns/action, N=10,000 K=\(k.grouped)",
                value("undoable", 10_000, k, Self.nsPerAction), value("snapshot-undoable", 10_000, k, Self.nsPerAction), limit: 1.5)
            add("6", "undoable / snapshot-undoable history B/step, N=10,000 K=\(k.grouped)",
                value("undoable", 10_000, k, Self.historyBytes), value("snapshot-undoable", 10_000, k, Self.historyBytes), limit: 0.01)
            // Issue 13: at a million items, `undoable` on a TreeArray costs at most twice the
            // plain reducer on the same collection.
            add("9", "undoable-tree / plain-tree ns/action, N=1,000,000 K=\(k.grouped)",
                value("undoable-tree", 1_000_000, k, Self.nsPerAction), value("plain-tree", 1_000_000, k, Self.nsPerAction), limit: 2)
            for n in Set(results.map(\.n)).sorted() where n != 1_000_000 {
                add("9", "undoable-tree / plain-tree ns/action, N=\(n.grouped) K=\(k.grouped)",
                    value("undoable-tree", n, k, Self.nsPerAction), value("plain-tree", n, k, Self.nsPerAction), limit: nil)
                // Issue 39: what keeping a copy of the present costs a plain reducer, and
                // what `undoable` costs beyond that floor.
                add("39", "plain-tree-shared / plain-tree ns/action, N=\(n.grouped) K=\(k.grouped)",
                    value("plain-tree-shared", n, k, Self.nsPerAction), value("plain-tree", n, k, Self.nsPerAction), limit: nil)
                add("39", "undoable-tree / plain-tree-shared ns/action, N=\(n.grouped) K=\(k.grouped)",
                    value("undoable-tree", n, k, Self.nsPerAction), value("plain-tree-shared", n, k, Self.nsPerAction), limit: nil)
                for impl in ["undoable", "snapshot-undoable"] {
                    add("6", "\(impl) / plain ns/action, N=\(n.grouped) K=\(k.grouped)",
                        value(impl, n, k, Self.nsPerAction), value("plain", n, k, Self.nsPerAction), limit: nil)
                }
            }
        }
        return checks
    }
}
