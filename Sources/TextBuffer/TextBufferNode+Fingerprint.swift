/// A polynomial hash of a run of text, kept in every node of a ``TextBuffer``: the hash of two
/// runs one after the other is made from theirs alone, so the fingerprint of any part of the
/// text costs O(log *n*) from the nodes' own (plus the bytes of the two leaves it cuts), and a
/// fingerprint of the text outside a run (what a `Revertible` step of the text keeps, to see
/// other writers' edits) never reads the rest of a long document.
///
/// Arithmetic modulo the Mersenne prime 2⁶¹ − 1, where a product reduces with shifts; each
/// byte counts as itself plus one, so runs of zero bytes of different lengths differ.
struct TextHash: Equatable {
    static let modulus: UInt64 = (1 << 61) - 1
    /// Any number below the modulus far from small powers of two would do; fixed, since
    /// saved archives keep fingerprints.
    static let base: UInt64 = 0x0a5c_2d97_e4b1_3f67 % modulus

    /// The run's bytes as the digits of a number in `base`, modulo the modulus.
    var hash: UInt64 = 0
    /// `base` to the power of the run's length: what `hash` is multiplied by when another run
    /// is put before this one.
    var power: UInt64 = 1

    init() {}

    /// The hash of `bytes`.
    init(of bytes: UnsafeRawBufferPointer) {
        var hash: UInt64 = 0
        for byte in bytes {
            hash = Self.add(Self.multiply(hash, Self.base), UInt64(byte) + 1)
        }
        self.hash = hash
        power = Self.power(bytes.count)
    }

    /// The hash of this run followed by `next`.
    func followed(by next: TextHash) -> TextHash {
        var result = TextHash()
        result.hash = Self.add(Self.multiply(hash, next.power), next.hash)
        result.power = Self.multiply(power, next.power)
        return result
    }

    static func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        // a·b = high·2⁶⁴ + low, and 2⁶¹ ≡ 1: the bits above 61 fold down.
        var value = (low & modulus) &+ ((low >> 61) | (high << 3))
        if value >= modulus { value -= modulus }
        if value >= modulus { value -= modulus }
        return value
    }

    static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let value = a &+ b
        return value >= modulus ? value - modulus : value
    }

    static func power(_ exponent: Int) -> UInt64 {
        var (result, square, remaining) = (UInt64(1), base, exponent)
        while remaining > 0 {
            if remaining & 1 == 1 { result = multiply(result, square) }
            square = multiply(square, square)
            remaining >>= 1
        }
        return result
    }
}

extension TextBufferNode {

    /// This node's hash made again from its bytes or its children's hashes: after a write,
    /// bottom-up along the path written.
    func computedTextHash() -> TextHash {
        if isLeaf {
            return bytes.withUnsafeBytes { TextHash(of: $0) }
        }
        var result = TextHash()
        for child in children {
            result = result.followed(by: child.node.textHash)
        }
        return result
    }

    /// Brings ``textHash`` up to date after this node's bytes or children changed in place.
    func refreshTextHash() {
        textHash = computedTextHash()
    }

    /// The hash of the bytes in `range` of this subtree: whole children by their own hash,
    /// only the leaves the range cuts byte by byte.
    func textHash(in range: Range<Int>) -> TextHash {
        if range.isEmpty { return TextHash() }
        if range.lowerBound == 0, range.upperBound == byteCount { return textHash }
        if isLeaf {
            return bytes.withUnsafeBytes { TextHash(of: UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
        var result = TextHash()
        var start = 0
        for child in children {
            let end = start + child.byteCount
            if end > range.lowerBound, start < range.upperBound {
                let lower = Swift.max(range.lowerBound, start) - start
                let upper = Swift.min(range.upperBound, end) - start
                result = result.followed(by: child.node.textHash(in: lower..<upper))
            }
            if end >= range.upperBound { break }
            start = end
        }
        return result
    }
}

extension TextBuffer {

    /// The fingerprint of every byte but those in `run`: the hashes of the text before and
    /// after it (see `TextHash`), joined. Saved archives keep it, so it depends on the bytes
    /// alone, never on how the chunks are cut.
    ///
    /// - Complexity: O(log *n*) from the nodes' hashes, plus the bytes of the leaves the
    ///   run's ends cut.
    package func fingerprint(outside run: Range<Int>) -> UInt64 {
        root.textHash(in: 0..<run.lowerBound).followed(by: root.textHash(in: run.upperBound..<utf8Count)).hash
    }
}
