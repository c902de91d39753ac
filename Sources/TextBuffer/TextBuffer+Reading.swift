extension TextBuffer {

    /// The text between two UTF-8 offsets, which must fall on scalar boundaries.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the range.
    public subscript(utf8Range range: Range<Int>) -> String {
        checkRange(range)
        return string(inUTF8Range: range)
    }

    /// The text in `range`.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the range.
    public subscript(range: Range<Index>) -> String {
        self[utf8Range: range.lowerBound.utf8Offset..<range.upperBound.utf8Offset]
    }

    /// The text in `range`, unchecked: for a caller whose range is on scalar boundaries by
    /// construction (a step recorded from two versions), which would otherwise pay two tree
    /// lookups per read to check it.
    package func string(inUTF8Range range: Range<Int>) -> String {
        guard !range.isEmpty else { return "" }
        return String(unsafeUninitializedCapacity: range.count) { buffer in
            var written = 0
            root.forEachChunk(in: range) { chunk in
                chunk.withUnsafeBufferPointer { source in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(fromContentsOf: source)
                }
                written += chunk.count
            }
            return written
        }
    }

    /// Calls `body` with each chunk of the text's UTF-8, in order: the fastest way to read
    /// the whole text (to write it to a file, say).
    ///
    /// - Complexity: O(*n*).
    public func forEachUTF8Chunk(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try forEachUTF8Chunk(in: 0..<utf8Count, body)
    }

    /// Calls `body` with the pieces of each chunk that fall in `range`, in order: a run of
    /// the text compared in place, without copying it into a `String` first.
    ///
    /// - Complexity: O(log *n* + *k*), where *k* is the length of the range.
    package func forEachUTF8Chunk(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try root.forEachChunk(in: range) { chunk in
            try chunk.withUnsafeBufferPointer(body)
        }
    }

    /// Traps with a clear message unless `range` lies in the text with both ends on scalar
    /// boundaries.
    func checkRange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= utf8Count,
                     "TextBuffer: UTF-8 range \(range) is outside the text of \(utf8Count) bytes")
        precondition(isScalarBoundary(range.lowerBound) && (range.isEmpty || isScalarBoundary(range.upperBound)),
                     "TextBuffer: UTF-8 range \(range) does not fall on Unicode scalar boundaries")
    }

    /// Whether a UTF-8 offset inside the text (or at its end) starts a scalar.
    package func isScalarBoundary(_ offset: Int) -> Bool {
        offset == utf8Count || Node.isBoundary(root.byte(at: offset))
    }

    /// Whether a UTF-8 offset inside the text (or at its end) starts a scalar, read from
    /// `chunk`, one of this text's chunks, when it lies there: no walk down the tree.
    package func isScalarBoundary(_ offset: Int, near chunk: UTF8Chunk) -> Bool {
        chunk.range.contains(offset) ? chunk.isScalarBoundary(offset) : isScalarBoundary(offset)
    }

    /// Copies the text's bytes at `run` (in range) to the start of `target`, chunk by chunk.
    package func copyBytes(_ run: Range<Int>, to target: UnsafeMutableRawBufferPointer) {
        var written = 0
        forEachUTF8Chunk(in: run) { chunk in
            UnsafeMutableRawBufferPointer(rebasing: target[written...]).copyMemory(from: UnsafeRawBufferPointer(chunk))
            written += chunk.count
        }
    }
}

extension TextBuffer {

    /// The chunk holding byte `offset` (the last chunk for the end of the text): reads near
    /// one point from one walk down the tree. A history's step checks the boundaries of its
    /// run and copies the run and the text around it from the chunk of the edit, where each
    /// walked down once.
    package func chunk(containing offset: Int) -> UTF8Chunk {
        let (leaf, start) = root.leaf(containing: offset)
        return UTF8Chunk(leaf: leaf, range: start..<(start + leaf.bytes.count))
    }

    /// One chunk of a buffer's bytes and where it lies in the text.
    package struct UTF8Chunk {
        let leaf: Node
        /// The offsets in the text of the chunk's bytes.
        package let range: Range<Int>

        /// Whether `offset`, one of ``range``, starts a scalar.
        package func isScalarBoundary(_ offset: Int) -> Bool {
            Node.isBoundary(leaf.bytes[offset - range.lowerBound])
        }

        /// Whether the text's bytes at `run` all lie in this chunk.
        package func holds(_ run: Range<Int>) -> Bool {
            range.lowerBound <= run.lowerBound && run.upperBound <= range.upperBound
        }

        /// Copies the text's bytes at `run`, which this chunk ``holds(_:)``, to the start of
        /// `target`.
        package func copyBytes(_ run: Range<Int>, to target: UnsafeMutableRawBufferPointer) {
            leaf.bytes.withUnsafeBytes { bytes in
                let start = run.lowerBound - range.lowerBound
                target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + run.count)]))
            }
        }
    }
}
