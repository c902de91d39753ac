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
        guard root !== previous.root else { return nil }
        let (old, new) = (previous.root, root)
        let (oldCount, newCount) = (old.byteCount, new.byteCount)
        var prefix = TextBufferNode.commonPrefix(old, new)
        if prefix == oldCount, prefix == newCount { return nil }
        while prefix > 0,
              (prefix < oldCount && !TextBufferNode.isBoundary(old.byte(at: prefix)))
                || (prefix < newCount && !TextBufferNode.isBoundary(new.byte(at: prefix))) {
            prefix -= 1
        }
        var suffix = Swift.min(TextBufferNode.commonSuffix(old, new), Swift.min(oldCount, newCount) - prefix)
        while suffix > 0, !TextBufferNode.isBoundary(old.byte(at: oldCount - suffix)) {
            suffix -= 1
        }
        let around = contextRanges(offset: prefix, length: newCount - suffix - prefix, count: newCount) { isScalarBoundary($0) }
        let change = TextBufferChange(
            offset: prefix,
            oldPart: previous.string(inUTF8Range: prefix..<(oldCount - suffix)),
            newPart: string(inUTF8Range: prefix..<(newCount - suffix)),
            newCount: newCount,
            context: TextRunContext(
                before: string(inUTF8Range: around.before),
                after: string(inUTF8Range: around.after),
                fingerprint: fingerprint(outside: prefix..<(newCount - suffix))
            )
        )
        return Reversion(node: change)
    }
}

extension TextBuffer {

    /// The fingerprint of every byte but those in `run`: the hashes of the text before and
    /// after it (see `TextHash`), joined. O(log *n*) from the nodes' hashes, plus the bytes of
    /// the leaves the run's ends cut.
    func fingerprint(outside run: Range<Int>) -> UInt64 {
        root.textHash(in: 0..<run.lowerBound).followed(by: root.textHash(in: run.upperBound..<utf8Count)).hash
    }
}
