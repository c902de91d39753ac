import Foundation
import Revertible

/// `history-open` (issue 37): opening a saved history of K one-title edits on N items and
/// undoing one step, two ways.
///
/// - `store`: the history saved through a ``HistoryStepStore`` whose rows are each step's
///   JSON (as a database row), opened with `openHistory(from:)`: the outline is read, then
///   the steps next to the present, and undo reads the one it takes.
/// - `archive`: the whole ``HistoryArchive`` as JSON, decoded and loaded with
///   `restoreHistory(from:)`, as before stores existed. Skipped above 100,000 steps (it costs
///   about 55 µs a step).
///
/// The store is built once per size and kept for the repeats: K edits appended and saved to
/// it every 10,000 steps, so the history never sits whole in memory. Figures: the time to
/// open and undo one step (the fastest of ``opensPerRun`` opens, each of a new controller),
/// and how many step rows one open read. Every open checks the undone state.
///
/// Judge the store's flatness with `--impl store` alone: the runner goes size by size, so
/// with both implementations each store run follows the archive run of the size before, and
/// at K = 1,000,000 that is 100,000 decoded steps freed just before the timed open (measured:
/// 2.8 ms then, 0.3 ms alone; see Benchmarks/README.md, session 14).
struct HistoryOpen: Scenario {

    static let open = FigureColumn(key: "open_undo_us", header: "open+undo µs")
    static let reads = FigureColumn(key: "step_reads", header: "rows read")

    let name = "history-open"
    let impls = ["store", "archive"]
    let figures = [open, reads]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([10_000], [1_000, 10_000]) : ([10_000], [1_000, 10_000, 100_000, 1_000_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        if impl == "archive", k > 100_000 { return .skipped(reason: "a whole archive of \(k.grouped) steps takes about a minute to load") }
        do {
            let saved = try SavedHistories.shared.history(n: n, k: k, seed: seed)
            switch impl {
            case "store": return try openStore(saved)
            case "archive": return try openArchive(saved)
            default: throw BenchmarkFailure("history-open has no implementation '\(impl)'")
            }
        } catch let failure as BenchmarkFailure {
            throw failure
        } catch {
            throw BenchmarkFailure("history-open \(impl): \(error)")
        }
    }

    private func openStore(_ saved: SavedHistory) throws -> RunOutcome {
        // One open takes well under a millisecond, less than a time slice of this shared
        // machine: a single timing measured the load as much as the open (2.1 ms at K = 1,000
        // and 0.8 ms at K = 100,000 in one run). The fastest of several opens, each of a new
        // controller, is the open's own cost.
        var fastest = Double.infinity
        var reads = 0
        for _ in 0..<Self.opensPerRun {
            let readsBefore = saved.store.stepReads
            var time = Stopwatch()
            let controller = try time.measure {
                let controller = VersioningController(saved.final)
                try controller.openHistory(from: saved.store)
                try controller.undo()
                return controller
            }
            reads = saved.store.stepReads - readsBefore
            fastest = Swift.min(fastest, time.nanoseconds(per: 1) / 1_000)
            try check(controller.currentVersion.items == saved.beforeLast.items, "history-open store: undo gave the wrong list")
            try check(controller.undoCount == saved.steps - 1, "history-open store: the opened history has \(controller.undoCount + 1) steps, not \(saved.steps)")
        }
        return .measured([Self.open.key: fastest, Self.reads.key: Double(reads)])
    }

    /// How many times one run opens the store: see `openStore(_:)`.
    static let opensPerRun = 20

    private func openArchive(_ saved: SavedHistory) throws -> RunOutcome {
        let data = try saved.archiveData()
        var time = Stopwatch()
        let controller = try time.measure {
            let archive = try JSONDecoder().decode(HistoryArchive<TreeTodoState>.self, from: data)
            let controller = VersioningController(saved.final)
            try controller.restoreHistory(from: archive)
            try controller.undo()
            return controller
        }
        try check(controller.currentVersion.items == saved.beforeLast.items, "history-open archive: undo gave the wrong list")
        return .measured([Self.open.key: time.nanoseconds(per: 1) / 1_000, Self.reads.key: Double(saved.steps)])
    }

    /// Issue 37: opening at the largest K against the smallest (flat: within 1.5×), the time
    /// at 1M (at most 1 ms), and the store against the whole archive.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        let store = results.filter { $0.impl == "store" }.sorted { $0.k < $1.k }
        if let first = store.first, let last = store.last, last.k > first.k,
           let small = first.figures[Self.open.key], let large = last.figures[Self.open.key], small > 0 {
            checks.append(RatioCheck(target: "37", description: "store open+undo at K=\(last.k.grouped) / K=\(first.k.grouped)", value: large / small, limit: 1.5))
        }
        if let million = store.first(where: { $0.k == 1_000_000 })?.figures[Self.open.key] {
            checks.append(RatioCheck(target: "37", description: "store open+undo at K=1,000,000, ms", value: million / 1_000, limit: 1))
        }
        for result in store {
            if let time = result.figures[Self.open.key],
               let whole = results.first(where: { $0.impl == "archive" && $0.k == result.k })?.figures[Self.open.key], time > 0 {
                checks.append(RatioCheck(target: "37", description: "archive / store open+undo, K=\(result.k.grouped)", value: whole / time, limit: nil, atLeast: true))
            }
        }
        return checks
    }
}

/// A history saved to a store, with what opening it must give.
final class SavedHistory: Sendable {
    let store: RowStore<TreeTodoState>
    let final: TreeTodoState
    let beforeLast: TreeTodoState
    let steps: Int

    init(store: RowStore<TreeTodoState>, final: TreeTodoState, beforeLast: TreeTodoState, steps: Int) {
        self.store = store
        self.final = final
        self.beforeLast = beforeLast
        self.steps = steps
    }

    /// The whole history as one JSON archive, read back through the store.
    func archiveData() throws -> Data {
        let controller = VersioningController(final)
        try controller.openHistory(from: store)
        return try JSONEncoder().encode(controller.archive)
    }
}

/// The histories built so far, by size: building a million steps once is enough.
final class SavedHistories: @unchecked Sendable {
    // Sound to share: `histories` is only touched under `lock`.
    static let shared = SavedHistories()
    private let lock = NSLock()
    private var histories: [String: SavedHistory] = [:]

    func history(n: Int, k: Int, seed: UInt64) throws -> SavedHistory {
        lock.lock()
        defer { lock.unlock() }
        let key = "\(n) \(k) \(seed)"
        if let saved = histories[key] { return saved }
        var generator = SeededGenerator(seed: seed)
        let initial = TodoFixture.state(count: n, using: &generator)
        let plan = TitleEditPlan(count: k, on: initial, using: &generator)
        var state = TreeTodoState(items: TreeArray(initial.items))
        let controller = VersioningController(state)
        let store = RowStore<TreeTodoState>()
        var beforeLast = state
        for (index, edit) in plan.edits.enumerated() {
            beforeLast = state
            state.items[edit.index].title = edit.newTitle
            controller.append(state)
            if (index + 1) % 10_000 == 0 { try controller.saveHistory(to: store) }
        }
        try controller.saveHistory(to: store)
        let saved = SavedHistory(store: store, final: state, beforeLast: beforeLast, steps: k)
        histories[key] = saved
        return saved
    }
}

/// A ``HistoryStepStore`` of rows in memory, each step's JSON with its parent and scope
/// beside it, as a database table would keep them: every read decodes one row.
final class RowStore<Value: Codable & Sendable>: HistoryStepStore, @unchecked Sendable {
    // Sound to share: every field is only touched under `lock`.
    private let lock = NSLock()
    private var outlineBytes: Data?
    private var rows: [HistoryVersion: (parent: HistoryVersion, scope: Int, bytes: Data)] = [:]
    private var children: [HistoryVersion: [HistoryVersion]] = [:]
    private var reads = 0

    var stepReads: Int { lock.withLock { reads } }

    func outline() throws -> HistoryArchive<Value>.Outline? {
        guard let bytes = lock.withLock({ outlineBytes }) else { return nil }
        return try JSONDecoder().decode(HistoryArchive<Value>.Outline.self, from: bytes)
    }

    func step(leadingTo version: HistoryVersion) throws -> HistoryArchive<Value>.Step? {
        guard let bytes = lock.withLock({ () -> Data? in
            reads += 1
            return rows[version]?.bytes
        }) else { return nil }
        return try JSONDecoder().decode(HistoryArchive<Value>.Step.self, from: bytes)
    }

    func versions(after parent: HistoryVersion) -> [HistoryVersion] {
        lock.withLock { children[parent] ?? [] }
    }

    func versions(inScope level: Int) -> [HistoryVersion] {
        lock.withLock { rows.filter { $0.value.scope == level }.map(\.key) }
    }

    func write(_ changes: HistoryArchive<Value>.Changes) throws {
        let encoder = JSONEncoder()
        let outline = try encoder.encode(changes.outline)
        let encoded = try changes.savedSteps.map { ($0, try encoder.encode($0)) }
        lock.withLock {
            for version in changes.removedVersions {
                if let row = rows.removeValue(forKey: version) { children[row.parent]?.removeAll { $0 == version } }
            }
            for (step, bytes) in encoded {
                if let old = rows[step.version] { children[old.parent]?.removeAll { $0 == step.version } }
                rows[step.version] = (step.parent, step.scopeLevel, bytes)
                children[step.parent, default: []].append(step.version)
            }
            outlineBytes = outline
        }
    }
}
