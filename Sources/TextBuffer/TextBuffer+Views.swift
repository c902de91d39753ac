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
}
