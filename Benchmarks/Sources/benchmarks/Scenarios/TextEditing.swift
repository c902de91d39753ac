import Revertible

/// `text-editing`: a document of N UTF-8 bytes in a `String` (`string`, the baseline) or a
/// `TextBuffer` (`text-buffer`), edited with every step recorded by a `VersioningController`.
///
/// Figures: `load_mb_s` (the document made from its bytes: a `String` from UTF-8, a
/// `TextBuffer` from a `String`), `out_mb_s` (the whole text as a new `String`),
/// `type_ns_per_char` (K characters typed in bursts of 10 at random line starts, each
/// recorded: the position found from a UTF-8 offset, the edit, the step),
/// `undo_ns_per_char` (the K steps undone), `type_cpu_ns_per_char` and
/// `undo_cpu_ns_per_char` (the same two in this thread's CPU time, see ``ThreadClock``),
/// `bare_cpu_ns_per_char` (the same keystrokes in CPU time on another copy of the document,
/// without history: what recording is compared with), `remove_ns_per_char` (K line breaks removed,
/// each recorded), `history_bytes_per_char` (heap still in use after the typing minus
/// before it, over K: the steps, and the document's own growth) and
/// `grouped_bytes_per_char` (the same with each burst grouped into one step by debouncing).
/// Every text is checked against the plan's, outside the timing.
///
/// `text-buffer-transaction` types the same keystrokes into a `TextBuffer` at a stored
/// property of a `Versionable` value, each in a synchronous transaction, which journals the
/// edit instead of comparing (issue 39); it measures the typing and its undo only
/// (``measureTransactions(plan:)``, loop `typeInTransactions`).
///
/// `trace` (with `--trace PATH`, see ``EditingTrace``) replays a recorded editing session into
/// a `TextBuffer` instead, each transaction one step recorded by `append`
/// (`trace-transaction`: by `setWithTransaction`): `chars` is then the
/// number of transactions, and the figures are per transaction (N and K do not apply; no
/// removals, no grouping). The bare and recorded loops of both are functions of their own, so
/// that an instruction count names each (`typeBare`, `typeRecorded`).
///
/// `String` costs O(N) per keystroke (its history compares and copies the whole text), so
/// it types at most ``stringBudget`` / N characters (20 at least); `chars` says how many each
/// run typed.
struct TextEditing: Scenario {

    static let load = FigureColumn(key: "load_mb_s", header: "load MB/s")
    static let out = FigureColumn(key: "out_mb_s", header: "out MB/s")
    static let type = FigureColumn(key: "type_ns_per_char", header: "type ns")
    static let undo = FigureColumn(key: "undo_ns_per_char", header: "undo ns")
    static let typeCPU = FigureColumn(key: "type_cpu_ns_per_char", header: "type cpu ns")
    static let undoCPU = FigureColumn(key: "undo_cpu_ns_per_char", header: "undo cpu ns")
    static let bareCPU = FigureColumn(key: "bare_cpu_ns_per_char", header: "bare cpu ns")
    static let remove = FigureColumn(key: "remove_ns_per_char", header: "remove ns")
    static let historyBytes = FigureColumn(key: "history_bytes_per_char", header: "history B/char")
    static let groupedBytes = FigureColumn(key: "grouped_bytes_per_char", header: "grouped B/char")
    /// `text-buffer-transaction`: the heap that dropping the history frees once the typing is
    /// undone and redone (the steps alone, not the document's growth).
    static let freedBytes = FigureColumn(key: "history_freed_bytes_per_char", header: "freed B/char")
    static let characters = FigureColumn(key: "chars", header: "chars")
    /// Bytes of text a `String` run may type through, summed over its keystrokes.
    static let stringBudget = 500_000_000

    let name = "text-editing"
    let impls = ["string", "text-buffer", "text-buffer-transaction", "trace", "trace-transaction"]
    /// `--trace PATH`: the recorded session the `trace` implementation replays.
    var tracePath: String?
    let figures = [characters, load, out, type, undo, typeCPU, undoCPU, bareCPU, remove, historyBytes, freedBytes, groupedBytes]

    func defaultSizes(quick: Bool) -> (sizes: [Int], steps: [Int]) {
        quick ? ([1_000_000, 10_000_000], [50]) : ([1_000_000, 10_000_000, 100_000_000], [1_000])
    }

    func run(impl: String, n: Int, k: Int, seed: UInt64) throws(BenchmarkFailure) -> RunOutcome {
        switch impl {
        case "string":
            let characters = Swift.min(k, Swift.max(20, Self.stringBudget / n))
            return .measured(try measure(String.self, plan: TextEditingPlan(bytes: n, characters: characters, seed: seed)))
        case "text-buffer":
            return .measured(try measure(TextBuffer.self, plan: TextEditingPlan(bytes: n, characters: k, seed: seed)))
        case "text-buffer-transaction":
            return .measured(try measureTransactions(plan: TextEditingPlan(bytes: n, characters: k, seed: seed)))
        case "trace", "trace-transaction":
            guard let tracePath else { return .skipped(reason: "no --trace PATH given") }
            return .measured(try measureTrace(EditingTrace(path: tracePath), asTransactions: impl == "trace-transaction"))
        default: throw BenchmarkFailure("text-editing has no implementation '\(impl)'")
        }
    }

    func warmUp(impl: String, seed: UInt64) throws(BenchmarkFailure) {
        // The trace warms up with the text buffer's plan: a second replay would double its run.
        if impl.hasPrefix("trace"), tracePath == nil { return }
        _ = try run(impl: impl.hasPrefix("trace") ? "text-buffer" : impl, n: 100_000, k: 100, seed: seed)
    }

    func configured(by options: Options) -> any Scenario {
        var scenario = self
        scenario.tracePath = options.tracePath
        return scenario
    }

    // Inlined into each call site, so each text type is measured through specialized code.
    @inline(__always)
    private func measure<Text: EditableText>(_: Text.Type, plan: TextEditingPlan) throws(BenchmarkFailure) -> [String: Double] {
        let n = plan.text.utf8.count
        let k = plan.typing.count
        let megabytes = Double(n) / 1_000_000

        var loadTime = Stopwatch()
        var document = loadTime.measure { Text(loading: plan.text) }
        var outTime = Stopwatch()
        let out = outTime.measure { document.exported() }
        try check(out == plan.text, "text-editing: \(Text.self) did not load the document as it was")

        // The same keystrokes without history, on a document of its own (no leaf shared).
        var bare = Text(loading: plan.text)
        var bareCPU = ThreadClock()
        bareCPU.measure { Self.typeBare(plan, into: &bare) }
        try check(bare.string == plan.typedText, "text-editing: \(Text.self) typed without history does not hold the typed text")

        let controller = ValueVersioningController<Text>(document)
        let heapBefore = HeapMeter.bytesInUse()
        var typeTime = Stopwatch()
        var typeCPU = ThreadClock()
        typeTime.measure {
            typeCPU.measure { Self.typeRecorded(plan, into: &document, recordedBy: controller) }
        }
        let heapAfter = HeapMeter.bytesInUse()
        try check(controller.undoCount == k, "text-editing: \(controller.undoCount) steps after typing \(k) characters")
        try check(document.string == plan.typedText, "text-editing: \(Text.self) does not hold the typed text")

        let (undoTime, undoCPU) = try Self.undo(k, of: controller, into: &document)
        try check(document.string == plan.text, "text-editing: \(Text.self) undid the typing into something else")

        var removeTime = Stopwatch()
        removeTime.measure {
            for offset in plan.removals {
                document.removeByte(atUTF8Offset: offset)
                controller.append(document)
            }
        }
        try check(document.string == plan.removedText, "text-editing: \(Text.self) does not hold the text with the line breaks removed")

        // Grouped: each burst is one step (debounced by a test clock, so nothing sleeps).
        var grouped = Text(loading: plan.text)
        let clock = TestClock()
        let groupedController = ValueVersioningController<Text>(grouped)
        groupedController.withDebouncing(clock: clock, interval: .seconds(1))
        let groupedBefore = HeapMeter.bytesInUse()
        for (index, (offset, character)) in zip(plan.typing, plan.typed).enumerated() {
            clock.advance(by: index % TextEditingPlan.burst == 0 ? .seconds(5) : .milliseconds(100))
            grouped.type(character, atUTF8Offset: offset)
            groupedController.append(grouped)
        }
        let groupedAfter = HeapMeter.bytesInUse()
        let bursts = (k + TextEditingPlan.burst - 1) / TextEditingPlan.burst
        try check(groupedController.undoCount == bursts, "text-editing: \(groupedController.undoCount) grouped steps, not \(bursts)")
        try check(grouped.string == plan.typedText, "text-editing: \(Text.self) does not hold the typed text when grouped")

        var figures = Self.typingFigures(
            characters: k, type: (typeTime, typeCPU), undo: (undoTime, undoCPU), bareCPU: bareCPU,
            heapBefore: heapBefore, heapAfter: heapAfter
        )
        figures[Self.load.key] = megabytes / (loadTime.nanoseconds(per: 1) / 1e9)
        figures[Self.out.key] = megabytes / (outTime.nanoseconds(per: 1) / 1e9)
        figures[Self.remove.key] = removeTime.nanoseconds(per: plan.removals.count)
        if let groupedBefore, let groupedAfter {
            figures[Self.groupedBytes.key] = Double(groupedAfter - groupedBefore) / Double(k)
        }
        return figures
    }

    /// The plan's keystrokes without history. Never inlined, so that an instruction count
    /// names it (and ``typeRecorded(_:into:recordedBy:)``): recording a step costs the
    /// difference between the two.
    @inline(never)
    static func typeBare<Text: EditableText>(_ plan: TextEditingPlan, into text: inout Text) {
        for (offset, character) in zip(plan.typing, plan.typed) {
            text.type(character, atUTF8Offset: offset)
        }
    }

    /// The figures every typing run reports, per character of the `characters` typed: typing
    /// and undoing it with history (wall and processor time), typing it bare (processor time),
    /// and the heap the typing kept when both readings exist.
    static func typingFigures(
        characters k: Int,
        type: (wall: Stopwatch, cpu: ThreadClock), undo: (wall: Stopwatch, cpu: ThreadClock), bareCPU: ThreadClock,
        heapBefore: Int?, heapAfter: Int?
    ) -> [String: Double] {
        var figures = [
            Self.characters.key: Double(k),
            Self.type.key: type.wall.nanoseconds(per: k),
            Self.undo.key: undo.wall.nanoseconds(per: k),
            Self.typeCPU.key: type.cpu.nanoseconds(per: k),
            Self.undoCPU.key: undo.cpu.nanoseconds(per: k),
            Self.bareCPU.key: bareCPU.nanoseconds(per: k),
        ]
        if let heapBefore, let heapAfter {
            figures[Self.historyBytes.key] = Double(heapAfter - heapBefore) / Double(k)
        }
        return figures
    }

    /// Undoes `k` steps of `controller` into `document`, timed on the wall clock and in this
    /// thread's processor time.
    static func undo<Value: Revertible>(
        _ k: Int, of controller: ValueVersioningController<Value>, into document: inout Value
    ) throws(BenchmarkFailure) -> (wall: Stopwatch, cpu: ThreadClock) {
        var wall = Stopwatch()
        var cpu = ThreadClock()
        do {
            try wall.measure { () throws(HistoryError) in
                try cpu.measure { () throws(HistoryError) in
                    for _ in 0..<k { try controller.undo(&document) }
                }
            }
        } catch {
            throw BenchmarkFailure("text-editing: undo threw \(error)")
        }
        return (wall, cpu)
    }

    /// The plan's keystrokes, each recorded as a step by `append`.
    @inline(never)
    static func typeRecorded<Text: EditableText>(_ plan: TextEditingPlan, into text: inout Text, recordedBy controller: ValueVersioningController<Text>) {
        for (offset, character) in zip(plan.typing, plan.typed) {
            text.type(character, atUTF8Offset: offset)
            controller.append(text)
        }
    }

    /// Issue 28's targets for the text buffer, against swift-collections' `BigString`
    /// measured on this machine (4.3 µs to type at 10 MB, 6.9 µs at 100 MB): typing ≤ 4 µs
    /// and undo ≤ 6.5 µs at 10 MB, at most 1.5 times those at 100 MB; history ≤ 100 bytes
    /// per typed character; loading faster than `BigString`'s 23 MB/s. String / buffer
    /// ratios for information.
    func ratios(of results: [BenchmarkResult]) -> [RatioCheck] {
        var checks: [RatioCheck] = []
        for n in Set(results.map(\.n)).sorted() {
            func value(_ impl: String, _ column: FigureColumn) -> Double? {
                results.first { $0.impl == impl && $0.n == n }?.figures[column.key]
            }
            let size = "N=\(n / 1_000_000) MB"
            let scale = n >= 100_000_000 ? 1.5 : 1.0
            let targeted = n >= 10_000_000
            for (column, bound) in [(Self.type, 4_000.0), (Self.undo, 6_500.0), (Self.typeCPU, 4_000.0), (Self.undoCPU, 6_500.0)] {
                if let figure = value("text-buffer", column) {
                    checks.append(RatioCheck(target: "28.4", description: "text-buffer \(column.header)/char, \(size)", value: figure, limit: targeted ? bound * scale : nil))
                }
            }
            // Issue 39: typing with history within 1.5× of typing without it at 10 MB, and
            // recording a step (the difference) within 4× of the bare edit.
            if let typed = value("text-buffer", Self.typeCPU), let bare = value("text-buffer", Self.bareCPU), bare > 0 {
                checks.append(RatioCheck(target: "39", description: "text-buffer type cpu with / without history, \(size)", value: typed / bare, limit: targeted ? 1.5 : nil))
                checks.append(RatioCheck(target: "39", description: "text-buffer recording / bare edit cpu, \(size)", value: (typed - bare) / bare, limit: targeted ? 4 : nil))
            }
            // The same two with each keystroke in a transaction, its edit journaled.
            if let typed = value("text-buffer-transaction", Self.typeCPU), let bare = value("text-buffer-transaction", Self.bareCPU), bare > 0 {
                checks.append(RatioCheck(target: "39", description: "text-buffer-transaction type cpu with / without history, \(size)", value: typed / bare, limit: targeted ? 1.5 : nil))
                checks.append(RatioCheck(target: "39", description: "text-buffer-transaction recording / bare edit cpu, \(size)", value: (typed - bare) / bare, limit: targeted ? 4 : nil))
            }
            // The same two on a recorded session (`--trace`), per transaction.
            for impl in ["trace", "trace-transaction"] {
                if let typed = value(impl, Self.typeCPU), let bare = value(impl, Self.bareCPU), bare > 0 {
                    checks.append(RatioCheck(target: "39", description: "\(impl) type cpu with / without history", value: typed / bare, limit: nil))
                    checks.append(RatioCheck(target: "39", description: "\(impl) recording / bare edit cpu", value: (typed - bare) / bare, limit: 4))
                }
            }
            if let bytes = value("text-buffer", Self.historyBytes) {
                checks.append(RatioCheck(target: "28.4", description: "text-buffer history B/char, \(size)", value: bytes, limit: 100))
            }
            if let load = value("text-buffer", Self.load) {
                checks.append(RatioCheck(target: "28.4", description: "text-buffer load MB/s, \(size)", value: load, limit: 23, atLeast: true))
            }
            for column in [Self.type, Self.undo, Self.remove] {
                if let string = value("string", column), let buffer = value("text-buffer", column), buffer > 0 {
                    checks.append(RatioCheck(target: "28.4", description: "string / text-buffer \(column.header), \(size)", value: string / buffer, limit: nil))
                }
            }
        }
        return checks
    }
}
