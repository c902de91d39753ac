/// One edit-title run of one implementation: build the state and the edits, append, undo
/// all, redo all, checking the states on the way.
///
/// Time is measured between checkpoints (every tenth of the steps), and the spot checks of
/// intermediate titles are made at the checkpoints, outside the measured time.
enum EditTitleRun {

    static func measure<History: TitleHistory>(
        _: History.Type,
        n: Int,
        k: Int,
        seed: UInt64
    ) throws(BenchmarkFailure) -> [String: Double] {
        // The same seed for every implementation: they all see the same state and edits.
        var generator = SeededGenerator(seed: seed)
        let initial = TodoFixture.state(count: n, using: &generator)
        let plan = TitleEditPlan(count: k, on: initial, using: &generator)
        let name = History.name

        // `state` gets an item buffer of its own. `initial` is kept for the final check; if
        // the two shared a buffer, the first edit's copy would stay alive and be counted as
        // history. With its own buffer, the state before and after the appends holds one
        // buffer, and the heap difference is the history alone.
        var state = History.State(detached: initial.items)
        var history = History(initial: state)

        // Step boundaries: 0, k/10, 2k/10, ..., k.
        let every = max(1, k / 10)
        let checkpoints = Array(stride(from: 0, to: k, by: every)) + [k]

        // Append: edit a title, record the state.
        var appendTime = Stopwatch()
        var step = 0
        let heapBefore = HeapMeter.bytesInUse()
        var heapAfterFirst: Int?
        for end in checkpoints.dropFirst() {
            appendTime.measure {
                while step < end {
                    let edit = plan.edits[step]
                    history.setTitle(edit.newTitle, at: edit.index, of: &state)
                    step += 1
                    if step == 1 { heapAfterFirst = HeapMeter.bytesInUse() }
                }
            }
            try check(history.undoCount == step, "\(name): \(history.undoCount) undo steps after \(step) appends")
        }
        // Read before the expectations below are built: they are not history.
        let heapAfter = HeapMeter.bytesInUse()
        let finalState = History.State(detached: plan.finalState(from: initial).items)
        try check(state == finalState, "\(name): the state after \(k) appends is not the edited state")

        // Undo all: version k down to version 0.
        var undoTime = Stopwatch()
        for end in checkpoints.reversed().dropFirst() {
            try undoTime.measure { () throws(BenchmarkFailure) in
                while step > end {
                    try history.undo(&state)
                    step -= 1
                }
            }
            try checkVersion(step, of: state, history: history, plan: plan, name: name)
        }
        try check(state == History.State(detached: initial.items), "\(name): undoing all \(k) steps did not give back the initial state")

        // Redo all: version 0 up to version k.
        var redoTime = Stopwatch()
        for end in checkpoints.dropFirst() {
            try redoTime.measure { () throws(BenchmarkFailure) in
                while step < end {
                    try history.redo(&state)
                    step += 1
                }
            }
            try checkVersion(step, of: state, history: history, plan: plan, name: name)
        }
        try check(state == finalState, "\(name): redoing all \(k) steps did not give back the edited state")

        var figures = [
            EditTitle.append.key: appendTime.nanoseconds(per: k),
            EditTitle.undo.key: undoTime.nanoseconds(per: k),
            EditTitle.redo.key: redoTime.nanoseconds(per: k),
        ]
        if let heapBefore, let heapAfter {
            figures[EditTitle.historyBytes.key] = Double(heapAfter - heapBefore) / Double(k)
        }
        if let heapAfterFirst, let heapAfter, k > 1 {
            figures[EditTitle.marginalBytes.key] = Double(heapAfter - heapAfterFirst) / Double(k - 1)
        }
        return figures
    }

    /// Spot-checks that `state` is version `version` (the initial state with the first
    /// `version` edits applied) where the edits next to it wrote.
    private static func checkVersion<History: TitleHistory>(
        _ version: Int,
        of state: History.State,
        history: History,
        plan: TitleEditPlan,
        name: String
    ) throws(BenchmarkFailure) {
        try check(history.undoCount == version, "\(name): \(history.undoCount) undo steps at version \(version)")
        if version > 0 {
            let edit = plan.edits[version - 1]
            try check(state.title(at: edit.index) == edit.newTitle,
                      "\(name): at version \(version), item \(edit.index) is titled '\(state.title(at: edit.index))', not '\(edit.newTitle)'")
        }
        if version < plan.edits.count {
            let edit = plan.edits[version]
            try check(state.title(at: edit.index) == edit.oldTitle,
                      "\(name): at version \(version), item \(edit.index) is titled '\(state.title(at: edit.index))', not '\(edit.oldTitle)'")
        }
    }
}
