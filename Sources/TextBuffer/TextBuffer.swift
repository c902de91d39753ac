/// Text for long documents: a string stored as a balanced tree of UTF-8 chunks that
/// versions of the text share, so that an edit costs O(log *n*), not O(*n*). Each node keeps
/// a hash of its bytes, so that a fingerprint of any part of the text is made without reading
/// the rest.
///
/// `TextBuffer` has value semantics. Copying is O(1): a copy shares all of its storage with
/// the original, and a mutation then copies only the path of chunks from the root to the
/// place it writes. Two versions that differ by one keystroke share everything else, which
/// is what makes it the text type for undo histories of documents of megabytes: comparing
/// two versions skips every chunk they share, and a history's copy of the present shares
/// the present's chunks (the `Revertible` module records its steps so).
///
/// Positions are UTF-8 offsets, or ``Index`` values made from them; every position must fall
/// on a Unicode scalar boundary. Each node of the tree also counts its Unicode scalars and
/// UTF-16 code units, so ``index(atUnicodeScalarOffset:)``, ``index(atUTF16Offset:)`` and
/// back, ``unicodeScalarOffset(of:)`` and ``utf16Offset(of:)``, cost O(log *n*) plus one
/// chunk's scan. Characters (grapheme clusters) are not counted in the tree, since one may
/// span two chunks: ``index(_:offsetByCharacters:)`` and `characters.count` read the text
/// they pass. Convert from and to `String` with ``init(_:)`` and `String(_:)`; read by
/// scalars with ``unicodeScalars`` or by characters with ``characters``.
///
/// Two buffers are equal when they hold the same Unicode scalars. Unlike `String`, a text
/// spelled differently but canonically equivalent (`"é"` as `"e\u{301}"`) is not equal: an
/// editor's undo must give back exactly the bytes that were there. Compare
/// `String(a) == String(b)` for canonical equivalence.
///
/// ```swift
/// var text = TextBuffer("Hello world")
/// text.insert(",", atUTF8Offset: 5)
/// let edited = String(text) // "Hello, world"
/// ```
public struct TextBuffer: Sendable {

    typealias Node = TextBufferNode

    /// Never nil: an empty buffer is one empty leaf.
    var root: Node

    init(root: Node) {
        self.root = root
    }

    /// An empty buffer.
    ///
    /// - Complexity: O(1).
    public init() {
        root = Node(leaf: [])
    }

    /// A buffer holding the text of `string`.
    ///
    /// - Complexity: O(*n*), where *n* is the length of `string` in UTF-8 bytes: one copy of
    ///   its bytes into chunks.
    public init(_ string: some StringProtocol) {
        self.init(string: String(string))
    }

    /// Specialized callers pass a `String`: the generic conversion happens in their module.
    @usableFromInline
    init(string: String) {
        var string = string
        root = string.withUTF8 { Node.build($0) }
    }

    /// The length of the text in UTF-8 bytes.
    ///
    /// - Complexity: O(1).
    public var utf8Count: Int { root.byteCount }

    /// Whether the buffer holds no text.
    ///
    /// - Complexity: O(1).
    public var isEmpty: Bool { root.byteCount == 0 }
}

extension String {

    /// The text of `buffer`.
    ///
    /// - Complexity: O(*n*), where *n* is the buffer's length in UTF-8 bytes: one copy of
    ///   its chunks.
    public init(_ buffer: TextBuffer) {
        self = buffer.string(inUTF8Range: 0..<buffer.utf8Count)
    }
}
