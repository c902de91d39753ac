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
    ///
    /// Eight bytes at a time, as `hash·base⁸ + Σ (bᵢ + 1)·base⁷⁻ⁱ`: the eight terms do not
    /// wait for each other, so one multiplication in eight waits for the one before. Byte by
    /// byte, every step waited, and hashing the edited leaf was most of a keystroke's time.
    /// The number is the same (saved fingerprints depend on it): see ``init(byteByByte:)``.
    init(of bytes: UnsafeRawBufferPointer) {
        let p1 = Self.base
        let p2 = Self.multiply(p1, p1)
        let p3 = Self.multiply(p2, p1)
        let p4 = Self.multiply(p2, p2)
        let p5 = Self.multiply(p4, p1)
        let p6 = Self.multiply(p4, p2)
        let p7 = Self.multiply(p4, p3)
        let p8 = Self.multiply(p4, p4)
        var hash: UInt64 = 0
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            // Each term is below the modulus, 2⁶¹, so eight of them add up below 2⁶⁴.
            var block = Self.multiply(UInt64(bytes[index]) + 1, p7)
            block &+= Self.multiply(UInt64(bytes[index + 1]) + 1, p6)
            block &+= Self.multiply(UInt64(bytes[index + 2]) + 1, p5)
            block &+= Self.multiply(UInt64(bytes[index + 3]) + 1, p4)
            block &+= Self.multiply(UInt64(bytes[index + 4]) + 1, p3)
            block &+= Self.multiply(UInt64(bytes[index + 5]) + 1, p2)
            block &+= Self.multiply(UInt64(bytes[index + 6]) + 1, p1)
            block &+= UInt64(bytes[index + 7]) + 1
            hash = Self.add(Self.multiply(hash, p8), Self.reduce(block))
            index += 8
        }
        while index < count {
            hash = Self.add(Self.multiply(hash, p1), UInt64(bytes[index]) + 1)
            index += 1
        }
        self.hash = hash
        power = Self.power(count)
    }

    /// The hash of `bytes` by its definition, one byte at a time: what ``init(of:)`` must
    /// equal, for tests.
    init(byteByByte bytes: UnsafeRawBufferPointer) {
        var hash: UInt64 = 0
        for byte in bytes {
            hash = Self.add(Self.multiply(hash, Self.base), UInt64(byte) + 1)
        }
        self.hash = hash
        power = Self.power(bytes.count)
    }

    /// `value` modulo the modulus, for any 64-bit value.
    static func reduce(_ value: UInt64) -> UInt64 {
        // 2⁶¹ ≡ 1: the three bits above 61 fold down, leaving at most 2⁶¹ + 6.
        let folded = (value & modulus) &+ (value >> 61)
        return folded >= modulus ? folded - modulus : folded
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
