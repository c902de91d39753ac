import Foundation

/// A contiguous run of bytes replaced inside a `String` or `Data`: only the replaced bytes
/// and the replacement are stored, so editing one character of a megabyte string keeps a few
/// bytes of history, not a megabyte.
final class RangeChange<Root, Value: ByteSpliceable>: TextRunChange {

    let keyPath: WritableKeyPath<Root, Value>
    /// Where the replaced run starts, in bytes.
    let offset: Int
    let oldPart: Value
    let newPart: Value
    let oldCount: Int
    /// The text around the run and a fingerprint of all of it (see `TextRunContext`); `nil`
    /// in a change read from an archive saved before they were kept, which then sees only
    /// another writer's change of the length or of the run.
    let context: TextRunContext<Value>?

    /// `newCount` must be `oldCount` with the run's length changed, as every comparison and
    /// every decoded change has it (the decoder checks): stored, it cost each step a 96-byte
    /// heap block instead of 80.
    init(
        at keyPath: WritableKeyPath<Root, Value>, offset: Int, oldPart: Value, newPart: Value, oldCount: Int, newCount: Int,
        context: TextRunContext<Value>?
    ) {
        assert(newCount == oldCount - oldPart.byteCount + newPart.byteCount, "a range change's counts disagree with its parts")
        self.keyPath = keyPath
        self.offset = offset
        self.oldPart = oldPart
        self.newPart = newPart
        self.oldCount = oldCount
        self.context = context
    }

    /// The byte count of the newer value.
    var newCount: Int { oldCount - oldPart.byteCount + newPart.byteCount }

    /// The change from `old` to `new`, or `nil` when they are equal.
    static func make(at keyPath: WritableKeyPath<Root, Value>, from old: Value, to new: Value) -> RangeChange? {
        guard old != new else { return nil }
        return old.withBytes { oldBytes in
            new.withBytes { newBytes in
                let (offset, oldLength, newLength) = changedRun(from: oldBytes, to: newBytes, isBoundary: Value.isBoundary)
                // Read from the newer value; the bytes outside the run are the same in both.
                let around = contextRanges(offset: offset, length: newLength, count: newBytes.count) { position in
                    position == newBytes.count || Value.isBoundary(newBytes[position])
                }
                return RangeChange(
                    at: keyPath,
                    offset: offset,
                    oldPart: old.bytes(at: offset, count: oldLength),
                    newPart: new.bytes(at: offset, count: newLength),
                    oldCount: oldBytes.count,
                    newCount: newBytes.count,
                    context: TextRunContext(
                        before: new.bytes(at: around.before.lowerBound, count: around.before.count),
                        after: new.bytes(at: around.after.lowerBound, count: around.after.count),
                        fingerprint: TextFingerprint.outside(newBytes, offset: offset, length: newLength)
                    )
                )
            }
        }
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        let (expectedCount, expectedPart) = direction == .backward ? (newCount, newPart) : (oldCount, oldPart)
        return value[keyPath: keyPath].withBytes { bytes in
            guard bytes.count == expectedCount else { return false }
            // The run's ends must fall where a cut is allowed: a comparison always cuts there,
            // but a decoded change could ask to cut a string inside a Unicode scalar.
            let end = offset + expectedPart.byteCount
            guard offset == bytes.count || Value.isBoundary(bytes[offset]),
                  end == bytes.count || Value.isBoundary(bytes[end]) else { return false }
            let runMatches = expectedPart.withBytes { expected in
                expected.count == 0 || memcmp(bytes.baseAddress! + offset, expected.baseAddress!, expected.count) == 0
            }
            // The rest of the text too: another writer's same-length edit elsewhere leaves the
            // length and the run as they were, and is still a change to this location.
            guard runMatches, let context else { return runMatches }
            return TextFingerprint.outside(bytes, offset: offset, length: end - offset) == context.fingerprint
        }
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        let (replaced, replacement) = direction == .backward ? (newPart, oldPart) : (oldPart, newPart)
        value[keyPath: keyPath].replaceBytes(at: offset, count: replaced.byteCount, with: replacement)
        return true
    }

    /// The whole string (or data) is the location of a conflict: see `TextRunChange`.
    var textLocation: LocationName { LocationName(keyPath) }

    func text(in value: Root) -> Value {
        value[keyPath: keyPath]
    }

    func replaceText(_ run: Range<Int>, in value: inout Root, with replacement: Value) {
        value[keyPath: keyPath].replaceBytes(at: run.lowerBound, count: run.count, with: replacement)
    }

    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard isAtSelf(keyPath), let path = parentPath as? WritableKeyPath<Parent, Value> else { return nil }
        return RangeChange<Parent, Value>(
            at: path, offset: offset, oldPart: oldPart, newPart: newPart, oldCount: oldCount, newCount: newCount,
            context: context
        )
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        paths.append(keyPath)
    }
}

/// The smallest run that differs between two byte buffers, widened so that both of its ends
/// fall where `isBoundary` allows a cut (a Unicode scalar boundary, for strings).
///
/// Returns its start and its length in each buffer.
func changedRun(
    from old: UnsafeRawBufferPointer,
    to new: UnsafeRawBufferPointer,
    isBoundary: (UInt8) -> Bool
) -> (offset: Int, oldLength: Int, newLength: Int) {
    let shorter = min(old.count, new.count)
    var prefix = commonPrefixLength(old, new, limit: shorter)
    while prefix > 0,
          (prefix < old.count && !isBoundary(old[prefix])) || (prefix < new.count && !isBoundary(new[prefix])) {
        prefix -= 1
    }
    var suffix = commonSuffixLength(old, new, limit: shorter - prefix)
    while suffix > 0, !isBoundary(old[old.count - suffix]) {
        suffix -= 1
    }
    return (prefix, old.count - prefix - suffix, new.count - prefix - suffix)
}

/// Compares a block at a time with `memcmp`, then bytes inside the first differing block.
private func commonPrefixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, limit: Int) -> Int {
    let block = 256
    var index = 0
    while index + block <= limit, memcmp(a.baseAddress! + index, b.baseAddress! + index, block) == 0 {
        index += block
    }
    while index < limit, a[index] == b[index] {
        index += 1
    }
    return index
}

private func commonSuffixLength(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, limit: Int) -> Int {
    let block = 256
    var length = 0
    while length + block <= limit,
          memcmp(a.baseAddress! + a.count - length - block, b.baseAddress! + b.count - length - block, block) == 0 {
        length += block
    }
    while length < limit, a[a.count - length - 1] == b[b.count - length - 1] {
        length += 1
    }
    return length
}

/// A value stored as bytes that can be spliced in place.
protocol ByteSpliceable: Equatable {
    var byteCount: Int { get }
    /// Calls `body` with the value's bytes, contiguous.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
    /// The bytes `offset ..< offset + count`, as a value of this type.
    func bytes(at offset: Int, count: Int) -> Self
    /// Replaces the bytes `offset ..< offset + count` with those of `replacement`.
    mutating func replaceBytes(at offset: Int, count: Int, with replacement: Self)
    /// Whether a cut may be made just before `byte`.
    static func isBoundary(_ byte: UInt8) -> Bool
}

extension String: ByteSpliceable {

    var byteCount: Int { utf8.count }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        var contiguous = self
        return try contiguous.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }

    // Through the scalar view, not a copy of the bytes into a new string: the part is kept
    // by a step, and a string made from bytes reserved more room (about 48 bytes a step
    // more in store-undoable).
    func bytes(at offset: Int, count: Int) -> String {
        guard count > 0 else { return "" }
        let start = utf8.index(utf8.startIndex, offsetBy: offset)
        let end = utf8.index(start, offsetBy: count)
        return String(unicodeScalars[start..<end])
    }

    /// Spliced on the UTF-8 bytes in one copy: through the scalar view (index by index,
    /// then a splice) it cost more than the rest of applying a short edit. The cuts fall on
    /// scalar boundaries (checked before any write), so the bytes copied are valid UTF-8 and
    /// the string holds exactly them.
    mutating func replaceBytes(at offset: Int, count: Int, with replacement: String) {
        let spliced = withBytes { bytes in
            replacement.withBytes { inserted in
                let total = bytes.count - count + inserted.count
                guard total > 0 else { return "" }
                return String(unsafeUninitializedCapacity: total) { buffer in
                    let target = UnsafeMutableRawBufferPointer(buffer)
                    target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<offset]))
                    UnsafeMutableRawBufferPointer(rebasing: target[offset...]).copyMemory(from: inserted)
                    UnsafeMutableRawBufferPointer(rebasing: target[(offset + inserted.count)...])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[(offset + count)...]))
                    return total
                }
            }
        }
        self = spliced
    }

    /// UTF-8 continuation bytes (`10xxxxxx`) never start a scalar.
    static func isBoundary(_ byte: UInt8) -> Bool {
        byte & 0b1100_0000 != 0b1000_0000
    }
}

extension Data: ByteSpliceable {

    var byteCount: Int { count }

    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }

    func bytes(at offset: Int, count: Int) -> Data {
        Data(self[(startIndex + offset) ..< (startIndex + offset + count)])
    }

    mutating func replaceBytes(at offset: Int, count: Int, with replacement: Data) {
        replaceSubrange((startIndex + offset) ..< (startIndex + offset + count), with: replacement)
    }

    static func isBoundary(_ byte: UInt8) -> Bool { true }
}
