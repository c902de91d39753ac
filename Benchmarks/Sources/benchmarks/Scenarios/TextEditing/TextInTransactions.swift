import Revertible

/// A document whose text is a `TextBuffer` at a stored property, as an editor's state holds
/// it: what `text-buffer-transaction` types into.
struct TextNote: Versionable, Sendable {
    var text: TextBuffer

    func addReversions(into reverter: inout some Reverter<TextNote>) {
        reverter.appendReversion(at: \.text)
    }
}

extension TextEditing {

    /// `text-buffer-transaction`: the plan's keystrokes typed into a ``TextNote``, each in a
    /// synchronous `setWithTransaction` of its controller, which lends the text to the
    /// transaction so that the edit is made in place and journaled, not compared (issue 39).
    /// Figures as `text-buffer`'s, for the typing and its undo (no load, removals or grouping).
    func measureTransactions(plan: TextEditingPlan) throws(BenchmarkFailure) -> [String: Double] {
        let k = plan.typing.count
        var bare = TextBuffer(loading: plan.text)
        var bareCPU = ThreadClock()
        bareCPU.measure { Self.typeBare(plan, into: &bare) }
        try check(bare.string == plan.typedText, "text-editing: TextBuffer typed without history does not hold the typed text")

        let controller = ValueVersioningController<TextNote>(TextNote(text: TextBuffer(loading: plan.text)))
        let heapBefore = HeapMeter.bytesInUse()
        var typeTime = Stopwatch()
        var typeCPU = ThreadClock()
        typeTime.measure {
            typeCPU.measure { Self.typeInTransactions(plan, recordedBy: controller) }
        }
        let heapAfter = HeapMeter.bytesInUse()
        var document = controller.currentVersion
        try check(controller.undoCount == k, "text-editing: \(controller.undoCount) steps after typing \(k) characters in transactions")
        try check(document.text.string == plan.typedText, "text-editing: TextBuffer typed in transactions does not hold the typed text")

        let (undoTime, undoCPU) = try Self.undo(k, of: controller, into: &document)
        try check(document.text.string == plan.text, "text-editing: TextBuffer typed in transactions undid the typing into something else")
        // The history alone, with the typing redone: `history_bytes_per_char` also counts what
        // the document's own storage gained (its leaves, written in place, grow by doubling).
        var freedBytes: Double?
        do {
            for _ in 0..<k { try controller.redo(&document) }
        } catch {
            throw BenchmarkFailure("text-editing: redo threw \(error)")
        }
        try check(document.text.string == plan.typedText, "text-editing: TextBuffer typed in transactions redid the typing into something else")
        if let withHistory = HeapMeter.bytesInUse() {
            controller.removeAllVersions()
            if let without = HeapMeter.bytesInUse() { freedBytes = Double(withHistory - without) / Double(k) }
        }

        var figures = Self.typingFigures(
            characters: k, type: (typeTime, typeCPU), undo: (undoTime, undoCPU), bareCPU: bareCPU,
            heapBefore: heapBefore, heapAfter: heapAfter
        )
        figures[Self.freedBytes.key] = freedBytes
        return figures
    }

    /// The plan's keystrokes, each in a transaction of its own. Never inlined, so that an
    /// instruction count names it.
    @inline(never)
    static func typeInTransactions(_ plan: TextEditingPlan, recordedBy controller: ValueVersioningController<TextNote>) {
        for (offset, character) in zip(plan.typing, plan.typed) {
            controller.setWithTransaction { $0.text.type(character, atUTF8Offset: offset) }
        }
    }
}
