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
        let (oldCount, newCount) = (previous.utf8Count, utf8Count)
        // Two buffers of one tree are found equal here at once, without reading it.
        var prefix = previous.commonPrefixCount(with: self)
        if prefix == oldCount, prefix == newCount { return nil }
        // After a keystroke, the run's ends, the run and the text around it lie in the chunk
        // of the edit in each version: read there, not each from a walk down the tree.
        let (oldChunk, newChunk) = (previous.chunk(containing: prefix), chunk(containing: prefix))
        func isBoundary(_ offset: Int, of text: TextBuffer, _ chunk: UTF8Chunk) -> Bool {
            chunk.range.contains(offset) ? chunk.isScalarBoundary(offset) : text.isScalarBoundary(offset)
        }
        while prefix > 0, !isBoundary(prefix, of: previous, oldChunk) || !isBoundary(prefix, of: self, newChunk) {
            prefix -= 1
        }
        var suffix = Swift.min(previous.commonSuffixCount(with: self), Swift.min(oldCount, newCount) - prefix)
        // The suffix is common: a boundary in one version is one in the other.
        while suffix > 0, !isBoundary(oldCount - suffix, of: previous, oldChunk) {
            suffix -= 1
        }
        let around = contextRanges(offset: prefix, length: newCount - suffix - prefix, count: newCount) {
            isBoundary($0, of: self, newChunk)
        }
        let change = TextBufferChange.recorded(
            offset: prefix, from: previous, old: prefix..<(oldCount - suffix), to: self, new: prefix..<(newCount - suffix),
            before: around.before, after: around.after, fingerprint: fingerprint(outside: prefix..<(newCount - suffix)),
            chunks: (oldChunk, newChunk)
        )
        return Reversion(node: change)
    }
}
