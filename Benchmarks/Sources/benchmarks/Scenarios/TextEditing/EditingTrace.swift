import Foundation
import Revertible

/// A recorded editing session read from a file, for `text-editing --trace PATH`: the
/// sequential traces of github.com/josephg/editing-traces (`automerge-paper.json`, gunzipped),
/// which stay out of this repository.
///
/// The file is one JSON object:
///
/// ```json
/// {"startContent": "", "endContent": "...",
///  "txns": [{"patches": [[position, deleted, "inserted"], ...]}, ...]}
/// ```
///
/// Each patch removes `deleted` Unicode scalars at scalar offset `position` and inserts the
/// string there; a transaction's patches apply in order. Other keys (`time`) are ignored.
/// Applying every transaction to `startContent` must give `endContent`, which the scenario
/// checks.
///
/// The positions are turned into UTF-8 offsets here, before anything is timed (by replaying
/// the trace once, unless it is all ASCII, where the two are the same): a timed edit is then
/// the `TextBuffer` edit itself, `replaceUTF8Subrange(_:with:)`, without a search for a scalar
/// offset, which costs more than the edit.
struct EditingTrace {
    struct Patch {
        /// The replaced bytes, in the document before this patch.
        let range: Range<Int>
        let inserted: String
    }

    let startContent: String
    let endContent: String
    let transactions: [[Patch]]

    init(path: String) throws(BenchmarkFailure) {
        let object: Any
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw BenchmarkFailure("text-editing: cannot read the trace \(path): \(error)")
        }
        guard let trace = object as? [String: Any],
              let start = trace["startContent"] as? String,
              let end = trace["endContent"] as? String,
              let transactions = trace["txns"] as? [[String: Any]]
        else {
            throw BenchmarkFailure("text-editing: \(path) is not a trace (startContent, endContent, txns)")
        }
        var parsed: [[Patch]] = []
        parsed.reserveCapacity(transactions.count)
        for transaction in transactions {
            guard let patches = transaction["patches"] as? [[Any]] else {
                throw BenchmarkFailure("text-editing: a transaction of \(path) has no patches")
            }
            var patchList: [Patch] = []
            for patch in patches {
                guard patch.count == 3,
                      let position = (patch[0] as? NSNumber)?.intValue,
                      let deleted = (patch[1] as? NSNumber)?.intValue,
                      let inserted = patch[2] as? String
                else {
                    throw BenchmarkFailure("text-editing: a patch of \(path) is not [position, deleted, inserted]")
                }
                // Scalar offsets for now; UTF-8 below.
                patchList.append(Patch(range: position..<(position + deleted), inserted: inserted))
            }
            parsed.append(patchList)
        }
        let isASCII = start.utf8.allSatisfy { $0 < 0x80 }
            && parsed.allSatisfy { $0.allSatisfy { $0.inserted.utf8.allSatisfy { $0 < 0x80 } } }
        if !isASCII {
            var replay = TextBuffer(start)
            for (transaction, patches) in parsed.enumerated() {
                for (index, patch) in patches.enumerated() {
                    let lower = replay.index(atUnicodeScalarOffset: patch.range.lowerBound).utf8Offset
                    let upper = replay.index(atUnicodeScalarOffset: patch.range.upperBound).utf8Offset
                    let converted = Patch(range: lower..<upper, inserted: patch.inserted)
                    parsed[transaction][index] = converted
                    replay.replaceUTF8Subrange(converted.range, with: converted.inserted)
                }
            }
        }
        startContent = start
        endContent = end
        self.transactions = parsed
    }
}

extension TextBuffer {
    /// Applies one transaction of a trace.
    @inline(__always)
    mutating func apply(_ transaction: [EditingTrace.Patch]) {
        for patch in transaction {
            replaceUTF8Subrange(patch.range, with: patch.inserted)
        }
    }
}

extension TextEditing {

    /// The trace's transactions applied to a `TextBuffer` without history (`bare`), then
    /// again with each transaction recorded as one step by `append` (`type`), and the steps
    /// undone. Each loop is a function of its own, never inlined, so that an instruction
    /// count (`valgrind --tool=callgrind`) gives each loop's cost by name:
    /// `EditingTrace.typeBare` and `EditingTrace.typeRecorded`.
    ///
    /// With `asTransactions`, each transaction is recorded by `setWithTransaction(_:)` instead,
    /// which applies it to the controller's own version (`typeTransactions`).
    func measureTrace(_ trace: EditingTrace, asTransactions: Bool = false) throws(BenchmarkFailure) -> [String: Double] {
        let k = trace.transactions.count

        var bare = TextBuffer(trace.startContent)
        var bareCPU = ThreadClock()
        bareCPU.measure { EditingTrace.typeBare(trace.transactions, into: &bare) }
        try check(String(bare) == trace.endContent, "text-editing: the trace applied without history does not give its endContent")

        var document = TextBuffer(trace.startContent)
        let controller = ValueVersioningController<TextBuffer>(document)
        let heapBefore = HeapMeter.bytesInUse()
        var typeTime = Stopwatch()
        var typeCPU = ThreadClock()
        typeTime.measure {
            typeCPU.measure {
                if asTransactions {
                    EditingTrace.typeTransactions(trace.transactions, recordedBy: controller)
                } else {
                    EditingTrace.typeRecorded(trace.transactions, into: &document, recordedBy: controller)
                }
            }
        }
        if asTransactions { document = controller.currentVersion }
        let heapAfter = HeapMeter.bytesInUse()
        try check(String(document) == trace.endContent, "text-editing: the trace applied with history does not give its endContent")
        try check(controller.undoCount == k, "text-editing: \(controller.undoCount) steps after \(k) transactions")

        let (undoTime, undoCPU) = try Self.undo(k, of: controller, into: &document)
        try check(String(document) == trace.startContent, "text-editing: the trace undone is not its startContent")

        return Self.typingFigures(
            characters: k, type: (typeTime, typeCPU), undo: (undoTime, undoCPU), bareCPU: bareCPU,
            heapBefore: heapBefore, heapAfter: heapAfter
        )
    }
}

extension EditingTrace {
    @inline(never)
    static func typeBare(_ transactions: [[Patch]], into text: inout TextBuffer) {
        for transaction in transactions {
            text.apply(transaction)
        }
    }

    @inline(never)
    static func typeRecorded(_ transactions: [[Patch]], into text: inout TextBuffer, recordedBy controller: ValueVersioningController<TextBuffer>) {
        for transaction in transactions {
            text.apply(transaction)
            controller.append(text)
        }
    }

    @inline(never)
    static func typeTransactions(_ transactions: [[Patch]], recordedBy controller: ValueVersioningController<TextBuffer>) {
        for transaction in transactions {
            controller.setWithTransaction { $0.apply(transaction) }
        }
    }
}
