extension TextBuffer {

    /// A position in a ``TextBuffer``: a UTF-8 offset on a Unicode scalar boundary.
    ///
    /// An index stays a plain offset, valid in any version of the text long enough to hold
    /// it; an edit before it moves the text, not the index.
    public struct Index: Comparable, Hashable, Sendable {

        /// The number of UTF-8 bytes before this position.
        ///
        /// - Complexity: O(1).
        public let utf8Offset: Int

        init(utf8Offset: Int) {
            self.utf8Offset = utf8Offset
        }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// - Complexity: O(1).
        public static func < (lhs: Index, rhs: Index) -> Bool {
            lhs.utf8Offset < rhs.utf8Offset
        }
    }

    /// The position of the first scalar.
    ///
    /// - Complexity: O(1).
    public var startIndex: Index { Index(utf8Offset: 0) }

    /// The position after the last scalar.
    ///
    /// - Complexity: O(1).
    public var endIndex: Index { Index(utf8Offset: utf8Count) }

    /// The position at a UTF-8 offset, which must lie in the text (or at its end) and on a
    /// scalar boundary. Use ``index(validatingUTF8Offset:)`` for an offset from outside
    /// the program (a file, a peer, a user).
    ///
    /// - Complexity: O(log *n*).
    public func index(atUTF8Offset offset: Int) -> Index {
        checkRange(offset..<offset)
        return Index(utf8Offset: offset)
    }

    /// The position at a UTF-8 offset, or `nil` when the offset lies outside the text (its
    /// end is inside) or inside a multi-byte scalar. Named as `String(validating:as:)`,
    /// which also gives `nil` rather than trapping.
    ///
    /// - Complexity: O(log *n*).
    public func index(validatingUTF8Offset offset: Int) -> Index? {
        guard offset >= 0, offset <= utf8Count, isScalarBoundary(offset) else { return nil }
        return Index(utf8Offset: offset)
    }

    /// The position `distance` Unicode scalars after `index` (before it when negative),
    /// which must lie in the text.
    ///
    /// - Complexity: O(min(|*distance*|, *c*) + log *n*), where *c* is the size of a chunk (at
    ///   most 4 KB): a long jump goes by the scalar counts the tree keeps.
    public func index(_ index: Index, offsetByUnicodeScalars distance: Int) -> Index {
        checkRange(index.utf8Offset..<index.utf8Offset)
        // A step of a few scalars (a cursor moving) reads only the bytes it passes; a jump by
        // the counts scans up to two chunks, which would make such steps cost far more.
        guard distance.magnitude <= TextBuffer.scalarWalkLimit else {
            let target = root.count(of: .unicodeScalar, before: index.utf8Offset) + distance
            precondition(target <= unicodeScalarCount, "TextBuffer: moved past the end of the text")
            precondition(target >= 0, "TextBuffer: moved before the start of the text")
            return self.index(atUnicodeScalarOffset: target)
        }
        var offset = index.utf8Offset
        if distance >= 0 {
            for _ in 0..<distance {
                precondition(offset < utf8Count, "TextBuffer: moved past the end of the text")
                offset += TextBuffer.scalarLength(leadByte: root.byte(at: offset))
            }
        } else {
            for _ in 0 ..< -distance {
                precondition(offset > 0, "TextBuffer: moved before the start of the text")
                offset -= 1
                while !Node.isBoundary(root.byte(at: offset)) { offset -= 1 }
            }
        }
        return Index(utf8Offset: offset)
    }

    /// ``index(_:offsetByUnicodeScalars:)`` walks scalar by scalar (a tree lookup each) up to
    /// this distance, and jumps by the tree's counts beyond it.
    static let scalarWalkLimit = 16

    /// The position `distance` characters (extended grapheme clusters) after `index`, which
    /// must start a character; `distance` must not be negative. Stops at the end of the text.
    ///
    /// - Complexity: O(*d* + log *n*), where *d* is the number of bytes passed.
    public func index(_ index: Index, offsetByCharacters distance: Int) -> Index {
        precondition(distance >= 0, "TextBuffer: offsetByCharacters moves forward only")
        checkRange(index.utf8Offset..<index.utf8Offset)
        var iterator = CharacterView.Iterator(root: root, from: index.utf8Offset)
        var offset = index.utf8Offset
        for _ in 0..<distance {
            guard let character = iterator.next() else { break }
            offset += character.utf8.count
        }
        return Index(utf8Offset: offset)
    }

    /// The UTF-8 length of a scalar that starts with `byte`.
    static func scalarLength(leadByte byte: UInt8) -> Int {
        switch byte {
        case ..<0x80: 1
        case 0xF0...: 4
        case 0xE0...: 3
        default: 2
        }
    }
}
