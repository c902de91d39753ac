/// The fixed fields of a ``TextBuffer``'s change, kept in the change's object ahead of its
/// bytes (see `TextBufferChange`).
struct TextBufferChangeHeader {
    /// Where the run starts, in UTF-8 bytes; the same in both versions.
    let offset: Int
    /// The newer version's length in UTF-8 bytes.
    let newCount: Int
    /// The context's fingerprint (see `TextRunContext`); 0 when the change keeps no context.
    let fingerprint: UInt64
}

/// A run of text replaced in a ``TextBuffer``: where it starts, the text it held in the
/// older version and in the newer one, the newer version's length, and (see
/// `TextRunContext`) a few bytes on each side of the run and a fingerprint of the rest.
///
/// Checking reads the run and makes the fingerprint of the rest from the nodes' hashes
/// (O(log *n* + *k*)), so another writer's edit anywhere is seen; applying splices the run
/// (one path of chunks copied). Advancing a history's copy of the present takes the present's tree whole, so
/// the copy shares every chunk with the present.
///
/// A history keeps one per typed character, so its size is half of what a keystroke costs:
/// the four runs of text live in the object itself, after the fixed fields, with their
/// lengths as variable-length integers (four bytes for a typed character). A typed
/// character in a long text takes one 80-byte heap block (69 bytes asked); as four `String`s
/// beside the fields it took 104 (a 112-byte block).
///
/// The bytes after the header: the lengths of the old run, of the new run, of the context
/// before plus one (0 when the change keeps no context) and of the context after (only
/// with a context), each LEB128; then the old run, the new run, the context before and the
/// context after. Written once when the change is made, never after.
final class TextBufferChange: ManagedBuffer<TextBufferChangeHeader, UInt8>, TextRunChange {

    typealias Root = TextBuffer

    /// Where the four runs of bytes lie in the object's bytes.
    private struct Layout {
        var old: Range<Int>
        var new: Range<Int>
        var before: Range<Int>
        var after: Range<Int>
        var hasContext: Bool
    }

    /// A change holding copies of the given runs; each writer copies its run's bytes to the
    /// buffer it is given, which holds exactly the run's length.
    private static func make(
        offset: Int, newCount: Int, fingerprint: UInt64?,
        lengths: (old: Int, new: Int, before: Int, after: Int),
        write: (_ old: UnsafeMutableRawBufferPointer, _ new: UnsafeMutableRawBufferPointer,
                _ before: UnsafeMutableRawBufferPointer, _ after: UnsafeMutableRawBufferPointer) -> Void
    ) -> TextBufferChange {
        let hasContext = fingerprint != nil
        // No array of the four lengths: recording a step allocates the change and nothing else.
        let beforeField = hasContext ? lengths.before + 1 : 0
        let prefixCount = leb128Count(lengths.old) + leb128Count(lengths.new) + leb128Count(beforeField)
            + (hasContext ? leb128Count(lengths.after) : 0)
        let textCount = lengths.old + lengths.new + (hasContext ? lengths.before + lengths.after : 0)
        let buffer = create(minimumCapacity: prefixCount + textCount) { _ in
            TextBufferChangeHeader(offset: offset, newCount: newCount, fingerprint: fingerprint ?? 0)
        }
        let change = unsafeDowncast(buffer, to: TextBufferChange.self)
        change.withUnsafeMutablePointerToElements { elements in
            var position = 0
            func append(_ value: Int) {
                var rest = UInt(value)
                while rest >= 0x80 {
                    elements[position] = UInt8(truncatingIfNeeded: rest) | 0x80
                    rest >>= 7
                    position += 1
                }
                elements[position] = UInt8(rest)
                position += 1
            }
            append(lengths.old)
            append(lengths.new)
            append(beforeField)
            if hasContext { append(lengths.after) }
            func run(_ length: Int) -> UnsafeMutableRawBufferPointer {
                defer { position += length }
                return UnsafeMutableRawBufferPointer(start: elements + position, count: length)
            }
            let old = run(lengths.old), new = run(lengths.new)
            let before = run(hasContext ? lengths.before : 0), after = run(hasContext ? lengths.after : 0)
            write(old, new, before, after)
        }
        return change
    }

    /// How many bytes `value` takes as LEB128.
    private static func leb128Count(_ value: Int) -> Int {
        var count = 1
        var rest = UInt(value) >> 7
        while rest != 0 {
            count += 1
            rest >>= 7
        }
        return count
    }

    /// A change whose runs are read from the two versions: the old run from `previous` (the
    /// older version, compared or rebuilt from a journal's edit), the new run and the context
    /// from `current`, from `chunk`, its chunk of the edit, where it holds them.
    static func recorded<Previous: TextVersionBefore>(
        offset: Int, from previous: Previous, old: Range<Int>, to current: TextBuffer, new: Range<Int>,
        before: Range<Int>, after: Range<Int>, fingerprint: UInt64, chunk: TextBuffer.UTF8Chunk
    ) -> TextBufferChange {
        make(
            offset: offset, newCount: current.utf8Count, fingerprint: fingerprint,
            lengths: (old.count, new.count, before.count, after.count)
        ) { oldBytes, newBytes, beforeBytes, afterBytes in
            previous.copyBytes(old, to: oldBytes)
            copyBytes(new, of: current, chunk, to: newBytes)
            copyBytes(before, of: current, chunk, to: beforeBytes)
            copyBytes(after, of: current, chunk, to: afterBytes)
        }
    }

    /// A change holding the given runs: what an archive saved.
    static func make(
        offset: Int, oldPart: String, newPart: String, newCount: Int, context: TextRunContext<String>?
    ) -> TextBufferChange {
        make(
            offset: offset, newCount: newCount, fingerprint: context?.fingerprint,
            lengths: (oldPart.utf8.count, newPart.utf8.count, context?.before.utf8.count ?? 0, context?.after.utf8.count ?? 0)
        ) { old, new, before, after in
            func copy(_ text: String, to target: UnsafeMutableRawBufferPointer) {
                text.withBytes { target.copyMemory(from: $0) }
            }
            copy(oldPart, to: old)
            copy(newPart, to: new)
            if let context {
                copy(context.before, to: before)
                copy(context.after, to: after)
            }
        }
    }

    /// Calls `body` with the object's bytes and where each run lies in them.
    private func withLayout<R>(_ body: (UnsafePointer<UInt8>, Layout) -> R) -> R {
        withUnsafeMutablePointerToElements { elements in
            var position = 0
            func next() -> Int {
                var value: UInt = 0
                var shift: UInt = 0
                while true {
                    let byte = elements[position]
                    position += 1
                    value |= UInt(byte & 0x7f) << shift
                    if byte < 0x80 { return Int(value) }
                    shift += 7
                }
            }
            let oldLength = next(), newLength = next(), beforeField = next()
            let hasContext = beforeField != 0
            let beforeLength = hasContext ? beforeField - 1 : 0
            let afterLength = hasContext ? next() : 0
            let old = position..<(position + oldLength)
            let new = old.upperBound..<(old.upperBound + newLength)
            let before = new.upperBound..<(new.upperBound + beforeLength)
            let after = before.upperBound..<(before.upperBound + afterLength)
            return body(UnsafePointer(elements), Layout(old: old, new: new, before: before, after: after, hasContext: hasContext))
        }
    }

    /// The run `range` of the object's bytes, as a `String`.
    private func string(_ range: KeyPath<Layout, Range<Int>>) -> String {
        withLayout { bytes, layout in
            String(decoding: UnsafeBufferPointer(start: bytes + layout[keyPath: range].lowerBound, count: layout[keyPath: range].count), as: UTF8.self)
        }
    }

    /// Where the run starts, in UTF-8 bytes; the same in both versions.
    var offset: Int { header.offset }
    /// The run in the older version.
    var oldPart: String { string(\.old) }
    /// The run in the newer version.
    var newPart: String { string(\.new) }
    /// The newer version's length in UTF-8 bytes.
    var newCount: Int { header.newCount }
    /// The text around the run and a fingerprint of all of it (see `TextRunContext`); `nil`
    /// in a change read from an archive saved before they were kept.
    var context: TextRunContext<String>? {
        guard withLayout({ $1.hasContext }) else { return nil }
        return TextRunContext(before: string(\.before), after: string(\.after), fingerprint: header.fingerprint)
    }

    /// The older version's length in UTF-8 bytes.
    var oldCount: Int { withLayout { newCount - $1.new.count + $1.old.count } }

    func canApply(to value: TextBuffer, _ direction: ReversionDirection) -> Bool {
        let offset = offset, newCount = newCount
        return withLayout { bytes, layout in
            let (count, expected) = direction == .backward
                ? (newCount, layout.new) : (newCount - layout.new.count + layout.old.count, layout.old)
            guard value.utf8Count == count else { return false }
            let length = expected.count
            // A decoded change could ask to cut inside a scalar; a recorded one never does.
            guard value.isScalarBoundary(offset), value.isScalarBoundary(offset + length) else { return false }
            var position = expected.lowerBound
            var same = true
            value.forEachUTF8Chunk(in: offset..<(offset + length)) { chunk in
                guard same else { return }
                same = chunk.elementsEqual(UnsafeBufferPointer(start: bytes + position, count: chunk.count))
                position += chunk.count
            }
            // The rest too: a same-length edit elsewhere keeps the length and the run.
            guard same, layout.hasContext else { return same }
            return value.fingerprint(outside: offset..<(offset + length)) == header.fingerprint
        }
    }

    func apply(to value: inout TextBuffer, _ direction: ReversionDirection) -> Bool {
        let offset = offset
        withLayout { bytes, layout in
            let (replaced, replacement) = direction == .backward ? (layout.new, layout.old) : (layout.old, layout.new)
            value.replaceUTF8Subrange(
                offset..<(offset + replaced.count),
                withUTF8: UnsafeBufferPointer(start: bytes + replacement.lowerBound, count: replacement.count)
            )
        }
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
