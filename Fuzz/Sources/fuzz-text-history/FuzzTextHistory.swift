// fuzz-text-history: a TextBuffer edited, undone and redone through a VersioningController,
// checked against plain bytes edited alike.
//
// The bytes give a starting text (short, several KB, or up to about 200 KB, so the tree has
// one to three levels of 4 KB leaves) and a script: short edits near a cursor (typing),
// bursts of keystrokes each recorded as a step, a few edits recorded as one step, long
// edits across leaves, undo, redo, undo all, redo all. After every operation (1 and 4
// always, 2 and 3 while the input's budget of bytes checked in full lasts, see
// `fullCheckBudget`):
//
// 1. the buffer holds exactly the model's bytes;
// 2. it counts its scalars and UTF-16 units as the standard library does, `_invariantCheck()`
//    passes, and every leaf's hash and counts, and the root's hash, equal their definitions
//    byte by byte (`_leafSummariesCheck()`): edits bring a leaf's summary up to date
//    incrementally, and archives keep fingerprints made of them;
// 3. `fingerprint(outside:)` of the run just edited and of another run (in the walks below,
//    of nothing) equals the byte-by-byte hash of the bytes outside it;
// 4. the controller's counts match the model's versions and its present is the buffer;
//    undo gives the previous version's bytes exactly and redo the next.
//
// After the script, the history goes through JSON (`archive`, `HistoryArchive`) and is
// restored onto the present, itself decoded from JSON (a tree cut afresh), in a new
// controller; both controllers undo to every earlier version, down to the starting text,
// and redo to every later one. A violation stops the process (`fatalError`, `precondition`),
// which libFuzzer records as a crash.
import Foundation
import FuzzSupport
import Revertible
import TextBuffer

/// One input's run: the controller, the buffer edited, and the model of both.
struct Session {
    var input: FuzzInput
    let controller: ValueVersioningController<TextBuffer>
    /// The text being edited: the controller's present, plus edits not yet recorded.
    var buffer: TextBuffer
    /// The bytes `buffer` must hold.
    var model: [UInt8]
    /// The recorded versions along undo's and redo's way; `versions[position]` is the present.
    var versions: [[UInt8]]
    var position = 0
    /// Where the last edit ended: typing edits land near it.
    var cursor = 0
    /// The run the last edit wrote in the present text, whose fingerprint a step keeps.
    var lastRun = 0..<0
    /// Operations and keystrokes per burst: fewer for long texts, whose every check reads
    /// the whole text several times, so an input stays well under a second.
    let maxOperations: Int
    let maxBurst: Int
    /// Bytes left to check in full (see `fullCheckBudget`).
    var budget = fullCheckBudget

    init(_ input: FuzzInput) {
        self.input = input
        let start = self.input.startingText()
        buffer = TextBuffer(start)
        model = Array(start.utf8)
        versions = [model]
        controller = ValueVersioningController<TextBuffer>(buffer)
        switch model.count {
        case ..<8_192: (maxOperations, maxBurst) = (40, 12)
        case ..<65_536: (maxOperations, maxBurst) = (12, 4)
        default: (maxOperations, maxBurst) = (6, 3)
        }
    }

    /// The runs whose fingerprints are checked: the last edit's and one that moves with
    /// `salt` over the text. (Outside nothing, the fingerprint is the root's hash, which
    /// `_leafSummariesCheck()` checks.)
    func runs(_ salt: Int) -> [Range<Int>] {
        let lower = boundary(atOrBefore: (salt &* 7_919) % (model.count + 1), in: model)
        let upper = boundary(atOrAfter: lower + (salt &* 389) % 6_000, in: model)
        let last = lastRun.upperBound <= model.count ? lastRun : 0..<0
        return [last, lower..<upper]
    }

    mutating func run() {
        check(buffer, holds: model, fingerprinting: runs(0), budget: &budget, "the starting text")
        let operations = input.int(below: maxOperations + 1)
        for operation in 0..<operations where !input.isAtEnd {
            perform(operation)
        }
        // The walks' own share, so that a long script leaves them some checks in full.
        budget = max(budget, 0) + walkCheckBudget
        checkArchive()
        walk(controller, from: position, "the controller")
    }

    mutating func perform(_ operation: Int) {
        switch input.int(below: 16) {
        case 0..<7:
            apply(input.shortEdit(of: model, near: cursor), operation)
            record(operation)
        case 7, 8:
            // A few edits recorded as one step, as a debounced burst or a transaction makes.
            for _ in 0..<input.int(in: 2...3) { apply(input.shortEdit(of: model, near: cursor), operation) }
            record(operation)
        case 9:
            apply(input.longEdit(of: model, near: cursor), operation)
            record(operation)
        case 10, 11: undo(operation)
        case 12: redo(operation)
        case 13:
            // Bounded by the steps recorded so far.
            while position > 0 { undo(operation) }
        case 14:
            while position < versions.count - 1 { redo(operation) }
        default:
            // Typing: each keystroke a step, the odd one a backspace.
            for _ in 0..<input.int(in: 1...maxBurst) {
                let edit: TextEdit
                if input.int(below: 5) == 0, cursor > 0 {
                    let lower = boundary(atOrBefore: min(cursor, model.count) - 1, in: model)
                    edit = TextEdit(range: lower..<boundary(atOrAfter: cursor, in: model), replacement: "")
                } else {
                    let at = boundary(atOrBefore: cursor, in: model)
                    edit = TextEdit(range: at..<at, replacement: input.piece())
                }
                apply(edit, operation)
                record(operation)
            }
        }
    }

    /// Edits the buffer and the model alike, then checks them.
    mutating func apply(_ edit: TextEdit, _ operation: Int) {
        buffer.replaceUTF8Subrange(edit.range, with: edit.replacement)
        model.replaceSubrange(edit.range, with: edit.replacement.utf8)
        cursor = edit.range.lowerBound + edit.replacement.utf8.count
        lastRun = edit.range.lowerBound..<cursor
        check(buffer, holds: model, fingerprinting: runs(operation), budget: &budget,
              "operation \(operation): replacing \(edit.range) with \(edit.replacement.utf8.count) bytes")
    }

    /// Records the buffer as the controller's next version; a text equal to the present
    /// makes no step.
    mutating func record(_ operation: Int) {
        controller.append(buffer)
        if model != versions[position] {
            versions.removeSubrange((position + 1)...)
            versions.append(model)
            position += 1
        }
        checkCounts(controller, operation)
    }

    mutating func undo(_ operation: Int) {
        guard position > 0 else { return }
        do { buffer = try controller.undo() } catch { violation("operation \(operation): undo to version \(position - 1) failed: \(error)") }
        position -= 1
        model = versions[position]
        cursor = min(cursor, model.count)
        lastRun = 0..<0
        check(buffer, holds: model, fingerprinting: runs(operation), budget: &budget, "operation \(operation): undo to version \(position)")
        checkCounts(controller, operation)
    }

    mutating func redo(_ operation: Int) {
        guard position < versions.count - 1 else { return }
        do { buffer = try controller.redo() } catch { violation("operation \(operation): redo to version \(position + 1) failed: \(error)") }
        position += 1
        model = versions[position]
        cursor = min(cursor, model.count)
        lastRun = 0..<0
        check(buffer, holds: model, fingerprinting: runs(operation), budget: &budget, "operation \(operation): redo to version \(position)")
        checkCounts(controller, operation)
    }

    /// The controller is at `position` of `versions`, with the buffer as its present.
    func checkCounts(_ controller: ValueVersioningController<TextBuffer>, _ operation: Int) {
        if controller.undoCount != position || controller.redoCount != versions.count - 1 - position {
            violation("operation \(operation): the controller can undo \(controller.undoCount) and redo \(controller.redoCount) steps, the model \(position) and \(versions.count - 1 - position)")
        }
        if controller.currentVersion != buffer {
            violation("operation \(operation): the controller's present is not the buffer")
        }
    }

    /// The history and the present saved as JSON and loaded into a new controller, which
    /// must undo and redo through the same versions: the steps' fingerprints were made on
    /// this tree and are checked on one cut afresh.
    mutating func checkArchive() {
        let restored: ValueVersioningController<TextBuffer>
        do {
            let history = try JSONEncoder().encode(controller.archive)
            let present = try JSONEncoder().encode([controller.currentVersion])
            let loaded = try JSONDecoder().decode([TextBuffer].self, from: present)[0]
            check(loaded, holds: versions[position], fingerprinting: runs(1), budget: &budget, "the present loaded from JSON")
            restored = ValueVersioningController<TextBuffer>(loaded)
            try restored.restoreHistory(from: JSONDecoder().decode(HistoryArchive<TextBuffer>.self, from: history))
        } catch {
            violation("saving and restoring the history failed: \(error)")
        }
        if restored.undoCount != position || restored.redoCount != versions.count - 1 - position {
            violation("the restored history can undo \(restored.undoCount) and redo \(restored.redoCount) steps, the model \(position) and \(versions.count - 1 - position)")
        }
        walk(restored, from: position, "the restored controller")
    }

    /// Undoes `controller` from `start` down to the starting text, then redoes to the last
    /// version, checking each version on the way.
    mutating func walk(_ controller: ValueVersioningController<TextBuffer>, from start: Int, _ name: String) {
        var at = start
        while at > 0 {
            let value: TextBuffer
            do { value = try controller.undo() } catch { violation("\(name): undo to version \(at - 1) failed: \(error)") }
            at -= 1
            check(value, holds: versions[at], fingerprinting: [0..<0], budget: &budget, "\(name): undo all, at version \(at)")
        }
        while at < versions.count - 1 {
            let value: TextBuffer
            do { value = try controller.redo() } catch { violation("\(name): redo to version \(at + 1) failed: \(error)") }
            at += 1
            check(value, holds: versions[at], fingerprinting: [0..<0], budget: &budget, "\(name): redo all, at version \(at)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Longer inputs add only operations past the bound: the time goes to checks, not bytes.
    var session = Session(FuzzInput(data, min(size, 4_096)))
    session.run()
    return 0
}
