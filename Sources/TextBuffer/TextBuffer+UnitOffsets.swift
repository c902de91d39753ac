extension TextBuffer {

    /// The length of the text in Unicode scalars: `unicodeScalars.count` of a `String` of
    /// the same text.
    ///
    /// - Complexity: O(1): every node of the tree keeps its count.
    public var unicodeScalarCount: Int { root.scalarCount }

    /// The length of the text in UTF-16 code units: `utf16.count` of a `String` of the same
    /// text (what JavaScript and the Language Server Protocol count).
    ///
    /// - Complexity: O(1): every node of the tree keeps its count.
    public var utf16Count: Int { root.utf16Count }

    /// The position after the first `offset` Unicode scalars; `offset` must lie in
    /// `0...unicodeScalarCount`.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk (at most 4 KB).
    public func index(atUnicodeScalarOffset offset: Int) -> Index {
        precondition(offset >= 0 && offset <= unicodeScalarCount,
                     "TextBuffer: scalar offset \(offset) is outside the text of \(unicodeScalarCount) scalars")
        // Any scalar count falls on a scalar boundary.
        return Index(utf8Offset: root.utf8Offset(after: offset, of: .unicodeScalar)!)
    }

    /// The position after the first `offset` UTF-16 code units; `offset` must lie in
    /// `0...utf16Count` and not between the two halves of a surrogate pair. Use
    /// ``index(validatingUTF16Offset:)`` for an offset from outside the program.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk (at most 4 KB).
    public func index(atUTF16Offset offset: Int) -> Index {
        precondition(offset >= 0 && offset <= utf16Count,
                     "TextBuffer: UTF-16 offset \(offset) is outside the text of \(utf16Count) code units")
        guard let utf8Offset = root.utf8Offset(after: offset, of: .utf16) else {
            preconditionFailure("TextBuffer: UTF-16 offset \(offset) falls inside a surrogate pair")
        }
        return Index(utf8Offset: utf8Offset)
    }

    /// The position after the first `offset` UTF-16 code units, or `nil` when the offset lies
    /// outside the text (its end is inside) or between the two halves of a surrogate pair.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk (at most 4 KB).
    public func index(validatingUTF16Offset offset: Int) -> Index? {
        guard offset >= 0, offset <= utf16Count,
              let utf8Offset = root.utf8Offset(after: offset, of: .utf16) else { return nil }
        return Index(utf8Offset: utf8Offset)
    }

    /// The number of Unicode scalars before `index`, which must lie in the text.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk (at most 4 KB).
    public func unicodeScalarOffset(of index: Index) -> Int {
        checkRange(index.utf8Offset..<index.utf8Offset)
        return root.count(of: .unicodeScalar, before: index.utf8Offset)
    }

    /// The number of UTF-16 code units before `index`, which must lie in the text.
    ///
    /// - Complexity: O(log *n* + *c*), where *c* is the size of a chunk (at most 4 KB).
    public func utf16Offset(of index: Index) -> Int {
        checkRange(index.utf8Offset..<index.utf8Offset)
        return root.count(of: .utf16, before: index.utf8Offset)
    }
}
