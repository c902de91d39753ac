extension TextBuffer {

    /// The characters of a ``TextBuffer``, found chunk by chunk.
    public struct CharacterView: Sequence, Sendable {
        let root: TextBufferNode

        /// An iterator over the characters.
        ///
        /// - Complexity: O(1).
        public func makeIterator() -> Iterator {
            Iterator(root: root, from: 0)
        }

        /// The number of characters, as a `String` of the same text would count them.
        ///
        /// A character may span two chunks, so no chunk can count its own characters alone:
        /// this reads the whole text. The lengths in UTF-8 bytes, scalars and UTF-16 code
        /// units are kept in the tree: ``TextBuffer/utf8Count``,
        /// ``TextBuffer/unicodeScalarCount`` and ``TextBuffer/utf16Count`` cost O(1).
        ///
        /// - Complexity: O(*n*).
        public var count: Int {
            var count = 0
            var iterator = makeIterator()
            while iterator.next() != nil { count += 1 }
            return count
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
