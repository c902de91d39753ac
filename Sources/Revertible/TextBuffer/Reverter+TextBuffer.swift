extension Reverter {

    /// Records the changed run of a ``TextBuffer``, with the text around it: the same
    /// reversion as the generic `Revertible` overload gives.
    ///
    /// Always inlined, as the `TreeArray` overload is: a history that lends the text to a
    /// reducer's run (or to a transaction) reaches its journal here with the value's type
    /// known, so that walk is compiled for it rather than run generically.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the run that differs, when
    ///   one version was made from the other by an edit.
    @inlinable @inline(__always)
    public mutating func appendReversion(at keyPath: WritableKeyPath<Root, TextBuffer>) {
        // Where the reverter's type is known (every walk but a generic caller's), these fold
        // away: the lending walk and the journaled walk after the run take the text.
        if asReverter(TreeArrayLending<Root>.self, { $0.lend(at: keyPath) })
            || asReverter(TreeArrayJournaledComparison<Root>.self, { $0.appendJournaled(at: keyPath) }) {
            return
        }
        appendComparedText(at: keyPath)
    }

    /// The comparison's part of the `TextBuffer` overload, kept out of line: it is the same
    /// code for every reverter.
    @usableFromInline
    mutating func appendComparedText(at keyPath: WritableKeyPath<Root, TextBuffer>) {
        let (previous, current) = versions(at: keyPath)
        guard let reversion = current.reversion(to: previous) else { return }
        append(reversion, at: keyPath)
    }
}
