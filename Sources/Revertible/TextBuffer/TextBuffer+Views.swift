extension TextBuffer {

    /// The text's Unicode scalars, in order.
    ///
    /// - Complexity: O(1) to make; iterating costs O(*n*).
    public var unicodeScalars: UnicodeScalarView { UnicodeScalarView(root: root) }

    /// The text's characters (extended grapheme clusters), in order, as a `String` of the
    /// same text would list them.
    ///
    /// - Complexity: O(1) to make; iterating costs O(*n*).
    public var characters: CharacterView { CharacterView(root: root) }

    /// The Unicode scalars of a ``TextBuffer``, decoded chunk by chunk.
    public struct UnicodeScalarView: Sequence, Sendable {
        let root: TextBufferNode

        /// An iterator over the scalars.
        ///
        /// - Complexity: O(1).
        public func makeIterator() -> Iterator {
            Iterator(root: root)
        }

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

    /// The characters of a ``TextBuffer``, found chunk by chunk.
    public struct CharacterView: Sequence, Sendable {
        let root: TextBufferNode

        /// An iterator over the characters.
        ///
        /// - Complexity: O(1).
        public func makeIterator() -> Iterator {
            Iterator(root: root, from: 0)
        }

        /// Iterates the characters. A chunk's last character may go on into the next chunk,
        /// so it is held back and read again with the next chunk; character boundaries can
        /// be found again from any boundary, so this finds exactly `String`'s characters.
        public struct Iterator: IteratorProtocol {
            let root: TextBufferNode
            var text = ""
            var position: String.Index
            var nextChunk: Int

            init(root: TextBufferNode, from offset: Int) {
                self.root = root
                position = "".startIndex
                nextChunk = offset
            }

            /// The next character, or `nil` at the end.
            ///
            /// - Complexity: O(1) amortized per byte.
            public mutating func next() -> Character? {
                while true {
                    if position < text.endIndex {
                        let end = text.index(after: position)
                        if end < text.endIndex || nextChunk >= root.byteCount {
                            defer { position = end }
                            return text[position]
                        }
                    } else if nextChunk >= root.byteCount {
                        return nil
                    }
                    let (leaf, start) = root.leaf(containing: nextChunk)
                    var refill = String(text[position...])
                    refill += String(decoding: leaf.bytes[(nextChunk - start)...], as: UTF8.self)
                    nextChunk = start + leaf.bytes.count
                    text = refill
                    position = text.startIndex
                }
            }
        }
    }
}
