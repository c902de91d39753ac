extension TextBuffer: Hashable {

    /// Hashes the text's UTF-8 bytes, so that equal buffers (see ``==(_:_:)``) hash alike
    /// however their chunks are cut.
    ///
    /// The bytes go to the hasher as whole 8-byte words packed across chunk boundaries, then
    /// the length: the words fed depend on the bytes alone, never on where a chunk ends.
    ///
    /// - Complexity: O(*n*), where *n* is the length of the text in UTF-8 bytes.
    public func hash(into hasher: inout Hasher) {
        var word: UInt64 = 0
        var filled = 0
        root.forEachChunk(in: 0..<utf8Count) { chunk in
            for byte in chunk {
                word |= UInt64(byte) << (8 * filled)
                filled += 1
                if filled == 8 {
                    hasher.combine(word)
                    word = 0
                    filled = 0
                }
            }
        }
        // The length tells a text ending in zero bytes from a shorter one.
        hasher.combine(word)
        hasher.combine(utf8Count)
    }
}
