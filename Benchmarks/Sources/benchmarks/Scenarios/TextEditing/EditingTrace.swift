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
struct EditingTrace {
    struct Patch {
        let position: Int
        let deleted: Int
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
                patchList.append(Patch(position: position, deleted: deleted, inserted: inserted))
            }
            parsed.append(patchList)
        }
        startContent = start
        endContent = end
        self.transactions = parsed
    }
}

extension TextBuffer {
    /// Applies one transaction of a trace: each patch finds its scalar offsets and replaces.
    @inline(__always)
    mutating func apply(_ transaction: [EditingTrace.Patch]) {
        for patch in transaction {
            let start = index(atUnicodeScalarOffset: patch.position)
            let end = patch.deleted == 0 ? start : index(atUnicodeScalarOffset: patch.position + patch.deleted)
            replaceSubrange(start..<end, with: patch.inserted)
        }
    }
}

extension TextEditing {

    /// The trace's transactions applied to a `TextBuffer` without history (`bare`), then
    /// again with each transaction recorded as one step by `append` (`type`), and the steps
    /// undone. Each loop is a function of its own, never inlined, so that an instruction
    /// count (`valgrind --tool=callgrind`) gives each loop's cost by name:
    /// `EditingTrace.typeBare` and `EditingTrace.typeRecorded`.
    func measureTrace(_ trace: EditingTrace) throws(BenchmarkFailure) -> [String: Double] {
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
            typeCPU.measure { EditingTrace.typeRecorded(trace.transactions, into: &document, recordedBy: controller) }
        }
        let heapAfter = HeapMeter.bytesInUse()
        try check(String(document) == trace.endContent, "text-editing: the trace applied with history does not give its endContent")
        try check(controller.undoCount == k, "text-editing: \(controller.undoCount) steps after \(k) transactions")

        var undoTime = Stopwatch()
        var undoCPU = ThreadClock()
        do {
            try undoTime.measure { () throws(HistoryError) in
                try undoCPU.measure { () throws(HistoryError) in
                    for _ in 0..<k { try controller.undo(&document) }
                }
            }
        } catch {
            throw BenchmarkFailure("text-editing: undo threw \(error)")
        }
        try check(String(document) == trace.startContent, "text-editing: the trace undone is not its startContent")

        var figures = [
            Self.characters.key: Double(k),
            Self.type.key: typeTime.nanoseconds(per: k),
            Self.undo.key: undoTime.nanoseconds(per: k),
            Self.typeCPU.key: typeCPU.nanoseconds(per: k),
            Self.undoCPU.key: undoCPU.nanoseconds(per: k),
            Self.bareCPU.key: bareCPU.nanoseconds(per: k),
        ]
        if let heapBefore, let heapAfter {
            figures[Self.historyBytes.key] = Double(heapAfter - heapBefore) / Double(k)
        }
        return figures
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
}
