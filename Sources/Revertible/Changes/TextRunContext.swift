import Foundation

/// What a change of a run of text (a `String`'s, a `Data`'s or a ``TextBuffer``'s bytes) keeps
/// of the text around its run, so that undo among other writers can tell whether anyone else
/// changed the text at all, and find the run again when someone did.
///
/// A step keeps only its run: without this, a same-length edit by another writer outside the
/// run went unseen (the length and the run still matched), and `.overwrite` counted the run's
/// end from the end of the text found, so another writer's insert before or after the run
/// moved the cut into text nobody meant to touch.
struct TextRunContext<Part: Equatable> {

    /// How many bytes of unchanged text on each side of the run are kept (fewer at the ends
    /// of the text, and cut back to a scalar boundary): enough to find the run again among
    /// ordinary text, small enough for a `String` to hold them without a heap block.
    static var length: Int { 12 }

    /// The unchanged bytes just before the run, the same in both versions.
    let before: Part
    /// The unchanged bytes just after the run, the same in both versions.
    let after: Part
    /// A fingerprint of every byte outside the run (the same in both versions): with the
    /// length and the run, whether the text is still exactly the version the step left.
    let fingerprint: UInt64
}

/// A 64-bit hash of bytes fed in any number of pieces: the result depends only on the bytes,
/// not on how they were cut. The fingerprint of a `String`'s and a `Data`'s runs; a
/// ``TextBuffer``'s is its own polynomial hash instead, which its nodes keep, so that its
/// fingerprint reads no shared chunk (`fingerprint(outside:)`). Eight bytes at a time (a
/// multiply and a shift each), since recording a step reads all of the text outside its run; its own arithmetic, stable across processes
/// and platforms (saved archives keep it), unlike `Hasher`, which is seeded per process.
struct TextFingerprint {
    private var state: UInt64 = 0x243f_6a88_85a3_08d3
    /// Bytes not yet mixed in, little-endian, fewer than eight.
    private var pending: UInt64 = 0
    private var pendingCount = 0
    private var count = 0

    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x9e37_79b9_7f4a_7c15
        state ^= state >> 29
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        count += bytes.count
        var index = 0
        while pendingCount > 0, index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * pendingCount)
            pendingCount += 1
            index += 1
            if pendingCount == 8 {
                mix(pending)
                (pending, pendingCount) = (0, 0)
            }
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * pendingCount)
            pendingCount += 1
            index += 1
        }
    }

    /// The fingerprint of every byte added: the last bytes and the count mixed in, then the
    /// bits spread once more.
    var value: UInt64 {
        var copy = self
        copy.mix(pending)
        copy.mix(UInt64(count))
        var result = copy.state
        result = (result ^ (result >> 33)) &* 0xff51_afd7_ed55_8ccd
        return result ^ (result >> 33)
    }

    /// The fingerprint of `bytes` without the run `offset ..< offset + length`.
    static func outside(_ bytes: UnsafeRawBufferPointer, offset: Int, length: Int) -> UInt64 {
        var fingerprint = TextFingerprint()
        fingerprint.add(UnsafeRawBufferPointer(rebasing: bytes[..<offset]))
        fingerprint.add(UnsafeRawBufferPointer(rebasing: bytes[(offset + length)...]))
        return fingerprint.value
    }
}

/// The byte ranges of the context to keep around a run `offset ..< offset + length` of `count`
/// bytes: up to ``TextRunContext/length`` bytes on each side, each cut back so that both of its
/// ends fall on a boundary.
func contextRanges(
    offset: Int, length: Int, count: Int, isBoundary: (Int) -> Bool
) -> (before: Range<Int>, after: Range<Int>) {
    var start = max(0, offset - TextRunContext<String>.length)
    while start < offset, !isBoundary(start) { start += 1 }
    let afterStart = offset + length
    var end = min(count, afterStart + TextRunContext<String>.length)
    while end > afterStart, !isBoundary(end) { end -= 1 }
    return (start..<offset, afterStart..<end)
}

/// Where a step's run lies now in `found`, a text that another writer changed: the bytes to
/// replace when `.overwrite` writes the step's run over theirs, or `nil` when the run cannot be
/// told apart (then nothing is written, and the conflict stands).
///
/// The run was at `offset` in a text of `expectedCount` bytes, holding `run`, between `before`
/// and `after` (the kept context; `nil` for a change saved before contexts were kept, which is
/// then found only where it still holds `run`, at its old offset from either end).
///
/// First the places where the run is still whole between its context; then, where the other
/// writer edited next to the run, the places where it is whole with the context on one side;
/// among several places, the one at its old offset from the start or from the end, else none.
/// Failing that (the other writer changed the run itself), the text between the one place the
/// context before occurs and the one place after it where the context after does. The start or
/// the end of the text stands in for an empty context at that end. Every cut falls where
/// `isBoundary` allows.
func locateRun(
    in found: UnsafeRawBufferPointer, run: UnsafeRawBufferPointer, offset: Int, expectedCount: Int,
    before: UnsafeRawBufferPointer?, after: UnsafeRawBufferPointer?, isBoundary: (UInt8) -> Bool
) -> Range<Int>? {
    let count = found.count
    let suffix = expectedCount - offset - run.count
    func cuttable(_ position: Int) -> Bool { position == count || (position >= 0 && position < count && isBoundary(found[position])) }
    func holds(_ pattern: UnsafeRawBufferPointer, at position: Int) -> Bool {
        guard position >= 0, position + pattern.count <= count else { return false }
        return pattern.count == 0 || memcmp(found.baseAddress! + position, pattern.baseAddress!, pattern.count) == 0
    }
    func unique(_ candidates: [Int]) -> Int? {
        if candidates.count == 1 { return candidates[0] }
        let atOldPlace = Set(candidates.filter { $0 == offset || $0 + run.count + suffix == count })
        return atOldPlace.count == 1 ? atOldPlace.first : nil
    }
    guard let before, let after else {
        // No context: only the two old places, where the run is whole.
        let starts = Set([offset, count - suffix - run.count]).filter { holds(run, at: $0) && cuttable($0) && cuttable($0 + run.count) }
        guard let start = unique(Array(starts)) else { return nil }
        return start..<(start + run.count)
    }
    // The whole text was the run: all of it is the run now.
    if offset == 0, suffix == 0 { return 0..<count }
    let beforeEnds = (before.count...max(before.count, count)).filter { position in
        position <= count && holds(before, at: position - before.count) && cuttable(position)
    }
    // The run still whole, with both contexts; then, at one of its old places only (so the
    // run is never taken for a copy of it elsewhere), with the context after or before.
    let withBefore = beforeEnds.filter { start in holds(run, at: start) && cuttable(start + run.count) }
    let withBoth = withBefore.filter { holds(after, at: $0 + run.count) }
    let oldPlaces = Set([offset, count - suffix - run.count]).filter { $0 >= 0 && cuttable($0) }
    let withAfter = oldPlaces.filter { start in
        holds(run, at: start) && cuttable(start + run.count) && holds(after, at: start + run.count)
    }
    for candidates in [withBoth, Array(withAfter), withBefore.filter(oldPlaces.contains)] where !candidates.isEmpty {
        guard let start = unique(candidates) else { return nil }
        return start..<(start + run.count)
    }
    // The other writer changed the run: what lies between its two contexts is the run now,
    // found only where each context occurs once. An empty context at an end of the old text
    // stands for that end.
    let start: Int
    if offset == 0 {
        start = 0
    } else {
        guard beforeEnds.count == 1 else { return nil }
        start = beforeEnds[0]
    }
    if suffix == 0 { return start..<count }
    let afterStarts = (start...count).filter { holds(after, at: $0) && cuttable($0) }
    guard afterStarts.count == 1 else { return nil }
    return start..<afterStarts[0]
}
