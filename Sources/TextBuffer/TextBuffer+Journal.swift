import TreeArray
import TreeArrayThreadLocal

// A history lends a `TextBuffer` registered at a stored property to a reducer's run as it
// lends a `TreeArray` (TreeArray/TreeArrayJournal.swift), through the same journal: the
// history's copy lets go of the text, so the run's edit finds the path to its chunk unshared
// and splices it in place, and the edit tells the journal what it replaced. Holding a copy
// instead, each keystroke copied the path the copy shares and the history then freed its
// older path and compared the two trees for the run (issue 39). Every edit ends in
// `replace(_:with:)`, which asks the journal first. The journal vouches for one edit; a second
// makes the entry keep the version before the run whole, and the history compares.

/// The one edit of a lent text that a journal vouches for: at `offset`, the bytes `old` were
/// replaced by `newCount` bytes. A class: the journal's entry holds it untyped.
@usableFromInline
package final class TextBufferSplice {
    package let offset: Int
    package let old: ContiguousArray<UInt8>
    package let newCount: Int

    init(offset: Int, old: ContiguousArray<UInt8>, newCount: Int) {
        self.offset = offset
        self.old = old
        self.newCount = newCount
    }
}

/// A text lent to a reducer's run.
@usableFromInline
package typealias TextBufferJournalRecord = TreeArrayJournalStorageRecord

extension TreeArrayJournal {

    /// Lends `text` for the run, unless another entry lends the same storage. Returns the
    /// entry, or `nil` when the storage is already lent.
    @usableFromInline
    package func lend(_ text: TextBuffer) -> TextBufferJournalRecord? {
        let record = TextBufferJournalRecord(root: text.root)
        return lend(record) ? record : nil
    }
}

extension TreeArrayJournalStorageRecord {

    /// The text's one edit the journal vouches for, if it took one.
    package var splice: TextBufferSplice? {
        write.map { unsafeDowncast($0, to: TextBufferSplice.self) }
    }

    /// Whether the journal still vouches for `text`: the lent text with at most the journaled
    /// edit, not a replacement nor a copy edited elsewhere.
    package func vouches(for text: TextBuffer) -> Bool {
        before == nil && root === text.root
    }

    /// The lent text as it was when lent.
    @usableFromInline
    package var versionBefore: TextBuffer {
        if let before { return TextBuffer(root: unsafeDowncast(before, to: TextBufferNode.self)) }
        if let shared { return TextBuffer(root: unsafeDowncast(shared, to: TextBufferNode.self)) }
        var text = TextBuffer(root: unsafeDowncast(root!, to: TextBufferNode.self))
        // Not journaled: the entry no longer names this storage while it is rewound.
        let held = root
        root = nil
        if let write = splice {
            write.old.withUnsafeBufferPointer { text.replace(write.offset..<(write.offset + write.newCount), with: $0) }
        }
        root = held
        return text
    }

    /// Takes the edit about to replace `range` of `text`, the lent text, with `newCount`
    /// bytes: the first is kept, and the entry lets go of the root so the edit is made in
    /// place; any later one makes the entry keep the version before the run whole. Returns
    /// whether the caller must hand the root back once it has written.
    func note(_ range: Range<Int>, newCount: Int, of text: TextBuffer) -> Bool {
        guard write == nil else {
            before = versionBefore.root
            write = nil
            shared = nil
            root = nil
            return false
        }
        write = TextBufferSplice(offset: range.lowerBound, old: text.bytes(in: range), newCount: newCount)
        root = nil
        return true
    }
}

extension TextBuffer {

    /// Tells the journal open on this thread, if it lent this text, of the edit about to
    /// replace `range` with `newCount` bytes. Returns the entry to hand the root back to after
    /// the edit, when the journal took it. Asked before the root's uniqueness is: the entry
    /// lets go of the root first. Without an open journal it costs one thread-local load.
    @inline(__always)
    mutating func journal(_ range: Range<Int>, newCount: Int) -> TextBufferJournalRecord? {
        guard _slowPath(treeArrayOpenJournal() != nil) else { return nil }
        return noteInOpenJournal(range, newCount: newCount)
    }

    @inline(never)
    mutating func noteInOpenJournal(_ range: Range<Int>, newCount: Int) -> TextBufferJournalRecord? {
        guard let entry = TreeArrayJournal.current?.entry(for: root) else { return nil }
        // Lent storage of a text's root type is a text's entry.
        let record = unsafeDowncast(entry, to: TextBufferJournalRecord.self)
        guard record.note(range, newCount: newCount, of: self) else { return nil }
        // Something else holds the lent storage too (a copy of the text, or the text edited
        // while a copy holds it): the edit copies it anyway, and the version before the run
        // is then that storage, which a dropped copy leaves the present holding (as a tree's
        // entry keeps it, for the same reason).
        if !isKnownUniquelyReferenced(&root) { record.shared = root }
        return record
    }

    /// The bytes in `range`, copied.
    func bytes(in range: Range<Int>) -> ContiguousArray<UInt8> {
        var bytes = ContiguousArray<UInt8>()
        bytes.reserveCapacity(range.count)
        forEachUTF8Chunk(in: range) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// A text as it was before its last edit, `splice`, read from the text after it: how a
/// journaled step finds the run that comparing the two versions would find (the same bytes
/// compared, the same scalar boundaries), without the older version.
package struct TextBufferVersionBeforeSplice {

    /// The text after the edit.
    let text: TextBuffer
    let splice: TextBufferSplice
    /// The length of the text before the edit.
    package let utf8Count: Int
    /// The leaf of `text` read last, and where it starts: the bytes compared lie around the
    /// edit, mostly in its chunk.
    var leaf: TextBufferNode
    var leafStart: Int

    package init(_ text: TextBuffer, splice: TextBufferSplice) {
        self.text = text
        self.splice = splice
        utf8Count = text.utf8Count - splice.newCount + splice.old.count
        (leaf, leafStart) = text.root.leaf(containing: splice.offset)
    }

    /// The byte at `offset` of the text after the edit.
    mutating func byteAfter(_ offset: Int) -> UInt8 {
        if offset < leafStart || offset - leafStart >= leaf.bytes.count {
            (leaf, leafStart) = text.root.leaf(containing: offset)
        }
        return leaf.bytes[offset - leafStart]
    }

    /// The byte at `offset` of the text before the edit.
    mutating func byteBefore(_ offset: Int) -> UInt8 {
        if offset < splice.offset { return byteAfter(offset) }
        let inOld = offset - splice.offset
        if inOld < splice.old.count { return splice.old[inOld] }
        return byteAfter(offset - splice.old.count + splice.newCount)
    }

    /// The length of the text the two versions start with alike: what
    /// ``TextBuffer/commonPrefixCount(with:)`` gives for them. It may end inside a scalar.
    package mutating func commonPrefixCount() -> Int {
        // Before the edit, the two are the same text.
        var prefix = splice.offset
        let end = Swift.min(utf8Count, text.utf8Count)
        while prefix < end, byteBefore(prefix) == byteAfter(prefix) { prefix += 1 }
        return prefix
    }

    /// The length of the text the two versions end with alike, or `limit` if that is less:
    /// what ``TextBuffer/commonSuffixCount(with:)`` gives for them, so limited.
    package mutating func commonSuffixCount(limit: Int) -> Int {
        // After the edit, the two are the same text.
        var suffix = Swift.min(text.utf8Count - splice.offset - splice.newCount, limit)
        let newCount = text.utf8Count
        while suffix < limit, byteBefore(utf8Count - 1 - suffix) == byteAfter(newCount - 1 - suffix) { suffix += 1 }
        return suffix
    }

    /// Whether `offset`, inside the text before the edit or at its end, starts a scalar there.
    package mutating func isScalarBoundary(_ offset: Int) -> Bool {
        offset == utf8Count || TextBufferNode.isBoundary(byteBefore(offset))
    }

    /// Copies the bytes at `run` of the text before the edit to the start of `target`.
    package func copyBytes(_ run: Range<Int>, to target: UnsafeMutableRawBufferPointer) {
        let (start, oldEnd) = (splice.offset, splice.offset + splice.old.count)
        var written = 0
        func copyAfter(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            text.copyBytes(range, to: UnsafeMutableRawBufferPointer(rebasing: target[written...]))
            written += range.count
        }
        // Before the edit, the same offsets; in it, the replaced bytes; after it, shifted.
        copyAfter(run.lowerBound..<Swift.max(run.lowerBound, Swift.min(run.upperBound, start)))
        let replaced = Swift.max(run.lowerBound, start)..<Swift.max(Swift.max(run.lowerBound, start), Swift.min(run.upperBound, oldEnd))
        if !replaced.isEmpty {
            splice.old.withUnsafeBytes { old in
                UnsafeMutableRawBufferPointer(rebasing: target[written...])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: old[(replaced.lowerBound - start)..<(replaced.upperBound - start)]))
            }
            written += replaced.count
        }
        let shift = splice.newCount - splice.old.count
        let tail = Swift.max(run.lowerBound, oldEnd)..<Swift.max(Swift.max(run.lowerBound, oldEnd), run.upperBound)
        copyAfter((tail.lowerBound + shift)..<(tail.upperBound + shift))
    }
}
