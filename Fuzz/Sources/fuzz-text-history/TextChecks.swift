// The checks run on a buffer after every operation, against the plain bytes it must hold.
import Foundation
import TextBuffer

/// Stops the process with what went wrong, for libFuzzer to record the input.
func violation(_ message: String) -> Never {
    fatalError("fuzz-text-history: \(message)")
}

/// Where two byte sequences first differ, for messages that do not print 200 KB of text.
func firstDifference(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Int {
    var offset = 0
    for (x, y) in zip(a, b) {
        if x != y { return offset }
        offset += 1
    }
    return offset
}

/// The fingerprint of the bytes outside `run` by its definition.
func definedFingerprint(of bytes: [UInt8], outside run: Range<Int>) -> UInt64 {
    let outside = Array(bytes[..<run.lowerBound]) + bytes[run.upperBound...]
    return outside.withUnsafeBytes { TextBuffer._fingerprintByDefinition(of: $0) }
}

/// Whether `buffer` holds exactly `model`, compared chunk by chunk with `memcmp`: the
/// standard library's and the sanitizers' code, not the instrumented loop of a byte-by-byte
/// compare, so the cheap check stays cheap in a 200 KB text.
func holds(_ buffer: TextBuffer, _ model: [UInt8]) -> Bool {
    guard buffer.utf8Count == model.count else { return false }
    var offset = 0
    var equal = true
    model.withUnsafeBytes { expected in
        buffer.forEachUTF8Chunk { chunk in
            if equal, chunk.count > 0, memcmp(chunk.baseAddress!, expected.baseAddress! + offset, chunk.count) != 0 { equal = false }
            offset += chunk.count
        }
    }
    return equal
}

/// How many bytes of text one input may check in full: a full check reads the text about
/// eight times in instrumented loops (half a microsecond a byte), so this bounds an input's
/// checks to a few tenths of a second whatever its script. Later checks are cheap ones.
let fullCheckBudget = 120_000

/// What the walks through the history after the script may check in full, besides what the
/// script left.
let walkCheckBudget = 60_000

/// Checks `buffer` against `model`, the bytes it must hold. Always the text; while `budget`
/// (bytes) lasts, also its counts, the tree's invariants, every leaf's hash and counts by
/// their definitions, and the fingerprint outside `runs` (each on scalar boundaries) by its
/// definition. `context` says where.
func check(_ buffer: TextBuffer, holds model: [UInt8], fingerprinting runs: [Range<Int>], budget: inout Int,
           _ context: @autoclosure () -> String) {
    if !holds(buffer, model) {
        violation("\(context()): the buffer holds \(buffer.utf8Count) bytes, the model \(model.count); first difference at \(firstDifference(String(buffer).utf8, model))")
    }
    guard budget >= model.count else { return }
    budget -= max(model.count, 1)
    // Counted here by the standard library, apart from the tree's own definition.
    let expected = String(decoding: model, as: UTF8.self)
    if buffer.unicodeScalarCount != expected.unicodeScalars.count || buffer.utf16Count != expected.utf16.count {
        violation("\(context()): the buffer counts \(buffer.unicodeScalarCount) scalars and \(buffer.utf16Count) UTF-16 units, the text has \(expected.unicodeScalars.count) and \(expected.utf16.count)")
    }
    // Leaves first: its messages survive an optimized build, `_invariantCheck()`'s
    // preconditions do not, and a stale leaf fails both.
    buffer._leafSummariesCheck()
    buffer._invariantCheck()
    for run in runs {
        let fingerprint = buffer.fingerprint(outside: run)
        let defined = definedFingerprint(of: model, outside: run)
        if fingerprint != defined {
            violation("\(context()): fingerprint(outside: \(run)) of \(model.count) bytes is \(fingerprint), by definition \(defined)")
        }
    }
}
