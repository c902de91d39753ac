extension TextBuffer: Equatable {

    /// Whether two buffers hold the same Unicode scalars (the same UTF-8 bytes).
    ///
    /// Not canonical equivalence, as `String`'s `==`: see ``TextBuffer``.
    ///
    /// - Complexity: O(log *n*) when one was made from the other by a few edits (the chunks
    ///   they share are skipped by identity); O(*n*) in general.
    public static func == (lhs: TextBuffer, rhs: TextBuffer) -> Bool {
        if lhs.root === rhs.root { return true }
        guard lhs.utf8Count == rhs.utf8Count else { return false }
        return TextBufferNode.commonPrefix(lhs.root, rhs.root) == lhs.utf8Count
    }
}
