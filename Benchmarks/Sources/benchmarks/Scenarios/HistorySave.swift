import Foundation
import Revertible
import UndoableReducer

/// `history-save`: saving and loading a history of K one-title edits on N items, three ways.
///
/// - `archive`: the controller's ``HistoryArchive`` as JSON (the diffs), read back with
///   `HistoryArchive(json:)` (the library's own JSON reader) and loaded with
///   `restoreHistory(from:)`.
/// - `archive-foundation`: the same, read with Foundation's `JSONDecoder` (what `archive`
///   measured before session 15).
/// - `snapshot`: a copy of the whole list per step, as JSON. It would take K × the list (33 GB
///   at N = K = 10,000), so it runs the first `min(K, 20)` steps and reports per step.
/// - `replay`: the actions (position and new title), loaded by replaying them through the
///   `undoable` reducer.
///
/// Figures: bytes per step on disk (the present, saved the same way by all three, is not
/// counted), and save and load time per step; for `archive`, also the part of loading after
/// the JSON is decoded (`restoreHistory(from:)`), which is the library's own. Every load is
/// checked: the present must be the final state, and undoing everything (untimed, for
/// `archive` and `replay`) must give the initial list back.
struct HistorySave: Scenario {

    static let bytes = FigureColumn(key: "bytes_per_step", header: "bytes/step")
    static let save = FigureColumn(key: "save_ns_per_step", header: "save ns/step")
    static let load = FigureColumn(key: "load_ns_per_step", header: "load ns/step")
    static let restore = FigureColumn(key: "restore_ns_per_step", header: "restore ns/step")

    let name = "history-save"
    let impls = ["archive", "archive-foundation", "snapshot", "replay"]
    let figures = [bytes, save, load, restore]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000], [100]) : ([10_000], [10_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        var generator = SeededGenerator(seed: seed)
        let initial = TodoFixture.state(count: n, using: &generator)
        let plan = TitleEditPlan(count: impl == "snapshot" ? min(k, 20) : k, on: initial, using: &generator)
        let final = TreeTodoState(items: TreeArray(plan.finalState(from: initial).items))
        let start = TreeTodoState(items: TreeArray(initial.items))
        do {
            switch impl {
            case "archive": return try archive(start, plan: plan, final: final, foundation: false)
            case "archive-foundation": return try archive(start, plan: plan, final: final, foundation: true)
            case "snapshot": return try snapshots(start, plan: plan, final: final)
            case "replay": return try replay(start, plan: plan, final: final)
            default: throw BenchmarkFailure("history-save has no implementation '\(impl)'")
            }
        } catch let failure as BenchmarkFailure {
            throw failure
        } catch {
            throw BenchmarkFailure("history-save \(impl): \(error)")
        }
    }

    private func archive(_ start: TreeTodoState, plan: TitleEditPlan, final: TreeTodoState, foundation: Bool) throws -> RunOutcome {
        let controller = VersioningController(start)
        var state = start
        for edit in plan.edits {
            state.items[edit.index].title = edit.newTitle
            controller.append(state)
        }
        var saveTime = Stopwatch()
        let data = try saveTime.measure { try JSONEncoder().encode(controller.archive) }
        var loadTime = Stopwatch()
        var restoreTime = Stopwatch()
        let loaded = try loadTime.measure {
            let archive = foundation
                ? try JSONDecoder().decode(HistoryArchive<TreeTodoState>.self, from: data)
                : try HistoryArchive<TreeTodoState>(json: data)
            let loaded = VersioningController(state)
            try restoreTime.measure { () throws(HistoryArchiveError) in try loaded.restoreHistory(from: archive) }
            return loaded
        }
        try check(loaded.currentVersion.items == final.items && loaded.undoCount == plan.edits.count, "history-save archive: the loaded history differs")
        let undone = try loaded.undo(to: .steps(plan.edits.count))
        try check(undone.items == start.items, "history-save archive: undoing the loaded history did not give the initial list")
        return measured(bytes: data.count, save: saveTime, load: loadTime, restore: restoreTime, steps: plan.edits.count)
    }

    private func snapshots(_ start: TreeTodoState, plan: TitleEditPlan, final: TreeTodoState) throws -> RunOutcome {
        var versions = [start]
        for edit in plan.edits {
            var next = versions.last!
            next.items[edit.index].title = edit.newTitle
            versions.append(next)
        }
        var saveTime = Stopwatch()
        let data = try saveTime.measure { try JSONEncoder().encode(versions.dropLast().map(\.items)) }
        var loadTime = Stopwatch()
        let loaded = try loadTime.measure { try JSONDecoder().decode([TreeArray<TodoItem>].self, from: data) }
        try check(loaded.count == plan.edits.count && loaded.first == start.items && versions.last!.items == final.items, "history-save snapshot: the loaded snapshots differ")
        return measured(bytes: data.count, save: saveTime, load: loadTime, steps: plan.edits.count)
    }

    /// One recorded action: which title became what.
    private struct Rename: Codable, Sendable {
        let index: Int
        let title: String
    }

    private func replay(_ start: TreeTodoState, plan: TitleEditPlan, final: TreeTodoState) throws -> RunOutcome {
        let actions = plan.edits.map { Rename(index: $0.index, title: $0.newTitle) }
        var saveTime = Stopwatch()
        let data = try saveTime.measure { try JSONEncoder().encode(actions) }
        let reducer = Reduce<TreeTodoState, Rename> { state, rename in
            state.items[rename.index].title = rename.title
            return .none
        }.undoable()
        var loadTime = Stopwatch()
        let store = try loadTime.measure {
            let saved = try JSONDecoder().decode([Rename].self, from: data)
            let store = Store(initialState: UndoableState(start), reducer: reducer)
            for action in saved { store.send(.action(action)) }
            return store
        }
        try check(store.state.present.items == final.items && store.state.undoCount == plan.edits.count, "history-save replay: the replayed history differs")
        store.send(.undo(to: .steps(plan.edits.count)))
        try check(store.state.present.items == start.items, "history-save replay: undoing the replayed history did not give the initial list")
        return measured(bytes: data.count, save: saveTime, load: loadTime, steps: plan.edits.count)
    }

    /// The figures of one run; `restore` only where loading has a part after decoding.
    private func measured(bytes: Int, save: Stopwatch, load: Stopwatch, restore: Stopwatch? = nil, steps: Int) -> RunOutcome {
        var figures = [
            Self.bytes.key: Double(bytes) / Double(steps),
            Self.save.key: save.nanoseconds(per: steps),
            Self.load.key: load.nanoseconds(per: steps),
        ]
        figures[Self.restore.key] = restore?.nanoseconds(per: steps)
        return .measured(figures)
    }

    /// Issue 12: the archive's bytes per step against a snapshot's and a replay's, and its
    /// load time against a replay's.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        for n in Set(results.map(\.n)).sorted() {
            func value(_ impl: String, _ column: FigureColumn) -> Double? {
                results.first { $0.impl == impl && $0.n == n }?.figures[column.key]
            }
            if let archive = value("archive", Self.bytes) {
                checks.append(RatioCheck(target: "12", description: "archive bytes per one-title step, N=\(n.grouped)", value: archive, limit: 500))
            }
            if let archive = value("archive", Self.bytes), let snapshot = value("snapshot", Self.bytes), archive > 0 {
                checks.append(RatioCheck(target: "12", description: "snapshot / archive bytes per step, N=\(n.grouped)", value: snapshot / archive, limit: nil, atLeast: true))
            }
            if let archive = value("archive", Self.bytes), let replay = value("replay", Self.bytes), replay > 0 {
                checks.append(RatioCheck(target: "12", description: "archive / replay bytes per step, N=\(n.grouped)", value: archive / replay, limit: nil))
            }
            if let archive = value("archive", Self.load), let replay = value("replay", Self.load), archive > 0 {
                checks.append(RatioCheck(target: "12", description: "replay / archive load time, N=\(n.grouped)", value: replay / archive, limit: nil, atLeast: true))
            }
        }
        return checks
    }
}
