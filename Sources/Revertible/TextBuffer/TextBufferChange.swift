/// A run of text replaced in a ``TextBuffer``: where it starts, the text it held in the
/// older version and in the newer one, the newer version's length, and (see
/// `TextRunContext`) a few bytes on each side of the run and a fingerprint of the rest.
///
/// Checking reads the run and makes the fingerprint of the rest from the nodes' hashes
/// (O(log *n* + *k*)), so another writer's edit anywhere is seen; applying splices the run
/// (one path of chunks copied). Advancing a history's copy of the present takes the present's tree whole, so
/// the copy shares every chunk with the present.
final class TextBufferChange: TextRunChange {

    typealias Root = TextBuffer

    /// Where the run starts, in UTF-8 bytes; the same in both versions.
    let offset: Int
    /// The run in the older version.
    let oldPart: String
    /// The run in the newer version.
    let newPart: String
    /// The newer version's length in UTF-8 bytes.
    let newCount: Int
    /// The text around the run and a fingerprint of all of it (see `TextRunContext`); `nil`
    /// in a change read from an archive saved before they were kept.
    let context: TextRunContext<String>?

    init(offset: Int, oldPart: String, newPart: String, newCount: Int, context: TextRunContext<String>?) {
        self.offset = offset
        self.oldPart = oldPart
        self.newPart = newPart
        self.newCount = newCount
        self.context = context
    }

    /// The older version's length in UTF-8 bytes.
    var oldCount: Int { newCount - newPart.utf8.count + oldPart.utf8.count }

    func canApply(to value: TextBuffer, _ direction: ReversionDirection) -> Bool {
        let (count, expectedPart) = direction == .backward ? (newCount, newPart) : (oldCount, oldPart)
        guard value.utf8Count == count else { return false }
        let length = expectedPart.utf8.count
        // A decoded change could ask to cut inside a scalar; a recorded one never does.
        guard value.isScalarBoundary(offset), value.isScalarBoundary(offset + length) else { return false }
        var part = expectedPart
        let runMatches = part.withUTF8 { expected in
            var position = 0
            var same = true
            value.forEachUTF8Chunk(in: offset..<(offset + length)) { chunk in
                guard same else { return }
                same = chunk.elementsEqual(UnsafeBufferPointer(rebasing: expected[position..<(position + chunk.count)]))
                position += chunk.count
            }
            return same
        }
        // The rest too: a same-length edit elsewhere keeps the length and the run.
        guard runMatches, let context else { return runMatches }
        return value.fingerprint(outside: offset..<(offset + length)) == context.fingerprint
    }

    func apply(to value: inout TextBuffer, _ direction: ReversionDirection) -> Bool {
        let (replaced, replacement) = direction == .backward ? (newPart, oldPart) : (oldPart, newPart)
        value.replaceUTF8Subrange(offset..<(offset + replaced.utf8.count), with: replacement)
        return true
    }

    /// The whole text is the location of a conflict: see `TextRunChange`.
    var textLocation: LocationName { .root }

    func text(in value: TextBuffer) -> String {
        String(value)
    }

    func replaceText(_ run: Range<Int>, in value: inout TextBuffer, with replacement: String) {
        value.replaceUTF8Subrange(run, with: replacement)
    }

    /// Applied forward to the version it was made from, the result holds exactly `newer`'s
    /// bytes: it takes `newer`'s tree instead of writing a path of its own.
    func advance(_ value: inout TextBuffer, toward newer: TextBuffer) -> Bool {
        value = newer
        return true
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<TextBuffer>]) {
        paths.append(\TextBuffer.self)
    }
}
