extension TextBuffer: Revertible {

    /// The reversion to `previous`, storing only the run of text that differs (cut at
    /// Unicode scalar boundaries), or `nil` when the two hold the same scalars.
    ///
    /// The chunks the two versions share are skipped by identity, never read.
    ///
    /// The change also keeps a fingerprint of the text outside the run, so that undo among
    /// other writers sees their edits anywhere in the text: made from the hashes the tree's
    /// nodes keep, it reads no shared chunk either.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the run that differs,
    ///   when one version was made from the other by an edit; O(*n*) in general.
    public func reversion(to previous: TextBuffer) -> Reversion<TextBuffer>? {
        // Two buffers of one tree are found equal here at once, without reading it.
        let prefix = previous.commonPrefixCount(with: self)
        if prefix == previous.utf8Count, prefix == utf8Count { return nil }
        // After a keystroke, the run's ends, the run and the text around it lie in the chunk
        // of the edit in each version: read there, not each from a walk down the tree.
        var compared = ComparedTextVersion(text: previous, current: self, chunk: previous.chunk(containing: prefix))
        return Reversion(node: change(from: &compared, commonPrefix: prefix))
    }

    /// The reversion to the version this text was before its last edit, `splice`, which a
    /// history's journal saw it take: the change ``reversion(to:)`` finds between the two,
    /// byte for byte (the run, where an edit could be placed in more than one way, is where
    /// the comparison places it), without the older version.
    func reversion(beforeSplice splice: TextBufferSplice) -> Reversion<TextBuffer>? {
        var before = TextBufferVersionBeforeSplice(self, splice: splice)
        let prefix = before.commonPrefixCount()
        if prefix == before.utf8Count, prefix == utf8Count { return nil }
        return Reversion(node: change(from: &before, commonPrefix: prefix))
    }

    /// Whether `record`, the journal's entry for this text (the present's, after the run it
    /// was lent to), vouches for it, and then the comparison's own change, made from the edit
    /// the entry saw instead of the older version (`nil`: the run did not edit it).
    @usableFromInline
    func journaledReversion(_ record: TextBufferJournalRecord) -> (isVouched: Bool, reversion: Reversion<TextBuffer>?) {
        guard record.vouches(for: self) else { return (false, nil) }
        guard let write = record.splice else { return (true, nil) }
        return (true, reversion(beforeSplice: write))
    }

    /// The change from `previous` to this text, which start with `commonPrefix` bytes alike
    /// and differ: one code for the comparison and the journal, so that both make the same.
    @inline(__always)
    func change<Previous: TextVersionBefore>(from previous: inout Previous, commonPrefix: Int) -> TextBufferChange {
        let (oldCount, newCount) = (previous.utf8Count, utf8Count)
        var prefix = commonPrefix
        let newChunk = chunk(containing: prefix)
        func isBoundary(_ offset: Int) -> Bool { isScalarBoundary(offset, near: newChunk) }
        while prefix > 0, !previous.isScalarBoundary(prefix) || !isBoundary(prefix) {
            prefix -= 1
        }
        var suffix = previous.commonSuffixCount(limit: Swift.min(oldCount, newCount) - prefix)
        // The suffix is common: a boundary in one version is one in the other.
        while suffix > 0, !previous.isScalarBoundary(oldCount - suffix) {
            suffix -= 1
        }
        let around = contextRanges(offset: prefix, length: newCount - suffix - prefix, count: newCount, isBoundary: isBoundary)
        return TextBufferChange.recorded(
            offset: prefix, from: previous, old: prefix..<(oldCount - suffix), to: self, new: prefix..<(newCount - suffix),
            before: around.before, after: around.after, fingerprint: fingerprint(outside: prefix..<(newCount - suffix)),
            chunk: newChunk
        )
    }
}

/// The older version of a text a step is made to, as the step reads it: compared with the
/// newer one (``ComparedTextVersion``), or rebuilt from the newer one and the one edit a
/// history's journal saw it take (`TextBufferVersionBeforeSplice`).
protocol TextVersionBefore {
    /// Its length in UTF-8 bytes.
    var utf8Count: Int { get }
    /// Whether `offset`, inside it or at its end, starts a scalar.
    mutating func isScalarBoundary(_ offset: Int) -> Bool
    /// How many bytes it ends with alike with the newer version, or `limit` if that is less.
    mutating func commonSuffixCount(limit: Int) -> Int
    /// Copies its bytes at `run` to the start of `target`.
    func copyBytes(_ run: Range<Int>, to target: UnsafeMutableRawBufferPointer)
}

/// The older version of a text, compared with the newer (`current`); read from `chunk`, its
/// chunk of the edit, where that holds what is read.
struct ComparedTextVersion: TextVersionBefore {
    let text: TextBuffer
    let current: TextBuffer
    let chunk: TextBuffer.UTF8Chunk

    var utf8Count: Int { text.utf8Count }

    func isScalarBoundary(_ offset: Int) -> Bool {
        text.isScalarBoundary(offset, near: chunk)
    }

    func commonSuffixCount(limit: Int) -> Int {
        Swift.min(text.commonSuffixCount(with: current), limit)
    }

    func copyBytes(_ run: Range<Int>, to target: UnsafeMutableRawBufferPointer) {
        TextBufferChange.copyBytes(run, of: text, chunk, to: target)
    }
}

extension TextBufferVersionBeforeSplice: TextVersionBefore {}

extension TextBufferChange {

    /// Copies the bytes at `run` of `text` to the start of `target`: from `chunk`, one of its
    /// chunks, when it holds them.
    static func copyBytes(_ run: Range<Int>, of text: TextBuffer, _ chunk: TextBuffer.UTF8Chunk, to target: UnsafeMutableRawBufferPointer) {
        if chunk.holds(run) {
            chunk.copyBytes(run, to: target)
        } else {
            text.copyBytes(run, to: target)
        }
    }
}
