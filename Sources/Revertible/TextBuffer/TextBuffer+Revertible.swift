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
        while prefix > 0, !previous.isScalarBoundary(prefix) || !isScalarBoundary(prefix) {
            prefix -= 1
        }
        var suffix = Swift.min(previous.commonSuffixCount(with: self), Swift.min(oldCount, newCount) - prefix)
        // The suffix is common: a boundary in one version is one in the other.
        while suffix > 0, !previous.isScalarBoundary(oldCount - suffix) {
            suffix -= 1
        }
        let around = contextRanges(offset: prefix, length: newCount - suffix - prefix, count: newCount) { isScalarBoundary($0) }
        let change = TextBufferChange.recorded(
            offset: prefix, from: previous, old: prefix..<(oldCount - suffix), to: self, new: prefix..<(newCount - suffix),
            before: around.before, after: around.after, fingerprint: fingerprint(outside: prefix..<(newCount - suffix))
        )
        return Reversion(node: change)
    }
}
