extension TextBuffer: ExpressibleByStringLiteral {

    /// A buffer holding the literal's text.
    ///
    /// - Complexity: O(*n*).
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
