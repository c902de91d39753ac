extension TextBuffer: Codable {

    /// Encodes the text as a single string, exactly as a `String` encodes, so a stored string
    /// can be read back as a buffer and the other way round.
    ///
    /// - Complexity: O(*n*).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(self))
    }

    /// Decodes the text from a single string.
    ///
    /// - Complexity: O(*n*).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode(String.self))
    }
}
