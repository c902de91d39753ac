extension TextBuffer {

    /// The Unicode scalars of a ``TextBuffer``, decoded chunk by chunk.
    public struct UnicodeScalarView: Sequence, Sendable {
        let root: TextBufferNode

        /// An iterator over the scalars.
        ///
        /// - Complexity: O(1).
        public func makeIterator() -> Iterator {
            Iterator(root: root)
        }

        /// The number of scalars.
        ///
        /// - Complexity: O(1): every node of the tree keeps its count.
        public var count: Int { root.scalarCount }

        /// The number of scalars, so that `Array(buffer.unicodeScalars)` allocates once.
        ///
        /// - Complexity: O(1).
        public var underestimatedCount: Int { root.scalarCount }

        /// Iterates the scalars, holding one chunk at a time.
        public struct Iterator: IteratorProtocol {
            let root: TextBufferNode
            /// The current chunk and the position in it.
            var chunk: ContiguousArray<UInt8> = []
            var position = 0
            /// Where the next chunk starts in the text.
            var nextChunk = 0

            init(root: TextBufferNode) {
                self.root = root
            }

            /// The next scalar, or `nil` at the end.
            ///
            /// - Complexity: O(1) amortized (O(log *n*) at each chunk's start).
            public mutating func next() -> Unicode.Scalar? {
                if position == chunk.count {
                    guard nextChunk < root.byteCount else { return nil }
                    let (leaf, start) = root.leaf(containing: nextChunk)
                    chunk = leaf.bytes
                    position = nextChunk - start
                    nextChunk = start + chunk.count
                }
                let lead = chunk[position]
                let length = TextBuffer.scalarLength(leadByte: lead)
                var value: UInt32
                switch length {
                case 1: value = UInt32(lead)
                case 2: value = UInt32(lead & 0x1F)
                case 3: value = UInt32(lead & 0x0F)
                default: value = UInt32(lead & 0x07)
                }
                for offset in 1..<length {
                    value = value << 6 | UInt32(chunk[position + offset] & 0x3F)
                }
                position += length
                // Chunks hold valid UTF-8 only.
                return Unicode.Scalar(value)!
            }
        }
    }
}
