import Revertible

/// A text type the `text-editing` scenario drives: `String` (the baseline) or `TextBuffer`.
protocol EditableText: Revertible {
    /// Reads a document from its UTF-8 bytes, as from a file: what `load_mb_s` times.
    init(loading text: String)
    /// The text, as a `String`.
    var string: String { get }
    /// The whole text written out as a new `String`: what `out_mb_s` times.
    func exported() -> String
    var utf8Count: Int { get }
    /// Types `character` (ASCII) at a UTF-8 offset on a scalar boundary.
    mutating func type(_ character: String, atUTF8Offset offset: Int)
    /// Removes the one-byte character at a UTF-8 offset.
    mutating func removeByte(atUTF8Offset offset: Int)
}

extension String: EditableText {
    /// A new string from the bytes: validated and copied, as reading a file makes one
    /// (`String(text)` would share the storage and copy nothing).
    init(loading text: String) {
        var text = text
        self = text.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    var string: String { self }

    /// A copy into new storage, as `String(buffer)` makes one (`self` would copy nothing).
    func exported() -> String {
        var text = self
        return text.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    var utf8Count: Int { utf8.count }

    mutating func type(_ character: String, atUTF8Offset offset: Int) {
        insert(contentsOf: character, at: utf8.index(utf8.startIndex, offsetBy: offset))
    }

    mutating func removeByte(atUTF8Offset offset: Int) {
        remove(at: utf8.index(utf8.startIndex, offsetBy: offset))
    }
}

extension TextBuffer: EditableText {
    init(loading text: String) {
        self.init(text)
    }

    var string: String { String(self) }

    func exported() -> String { String(self) }

    mutating func type(_ character: String, atUTF8Offset offset: Int) {
        insert(character, atUTF8Offset: offset)
    }

    mutating func removeByte(atUTF8Offset offset: Int) {
        removeUTF8Subrange(offset..<(offset + 1))
    }
}
