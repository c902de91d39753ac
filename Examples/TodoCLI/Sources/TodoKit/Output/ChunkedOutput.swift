/// Output made a piece at a time and handed on in chunks of about 32 KB: a listing of
/// 100,000 versions reaches the terminal as it is made, in a few hundred writes rather than
/// 100,000 of a line each or one of everything at the end.
struct ChunkedOutput {
    /// How many bytes are gathered before they are handed on.
    static let chunkSize = 32_768

    private var buffer = ""
    private let sink: (String) -> Bool
    /// Whether the reader is gone (the sink refused a chunk): what is written from then on is
    /// dropped, and a producer may stop making it.
    private(set) var isClosed = false

    /// Output handed to `sink`, which returns whether the reader still takes more.
    init(_ sink: @escaping (String) -> Bool) {
        self.sink = sink
    }

    mutating func write(_ text: String) {
        guard !isClosed else { return }
        buffer += text
        if buffer.utf8.count >= Self.chunkSize { flush() }
    }

    /// Hands on what was gathered.
    mutating func flush() {
        guard !isClosed, !buffer.isEmpty else { return }
        isClosed = !sink(buffer)
        buffer = ""
    }
}
