extension TextBuffer: CustomStringConvertible, CustomDebugStringConvertible {

    /// The text itself, as `String(buffer)` gives it: what `print` and test failures show.
    ///
    /// - Complexity: O(*n*).
    public var description: String { String(self) }

    /// The text quoted and escaped as a `String`'s `debugDescription`; a text longer than
    /// 1,024 bytes is cut after its first 256 bytes (at a scalar boundary) and followed by
    /// its length, so that a failure message about a long document stays readable.
    ///
    /// - Complexity: O(*k*), where *k* is the length shown (O(*n*) only for short texts).
    public var debugDescription: String {
        guard utf8Count > TextBuffer.debugDescriptionLimit else { return String(self).debugDescription }
        var end = TextBuffer.debugDescriptionPrefix
        while !isScalarBoundary(end) { end -= 1 }
        return "\(string(inUTF8Range: 0..<end).debugDescription)… (\(utf8Count) UTF-8 bytes)"
    }

    /// Texts up to this many bytes are shown whole by ``debugDescription``.
    static let debugDescriptionLimit = 1_024
    /// How many bytes of a longer text ``debugDescription`` shows (at most).
    static let debugDescriptionPrefix = 256
}
