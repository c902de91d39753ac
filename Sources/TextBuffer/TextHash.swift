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

    /// A run's hash when its number is known: `hash`, for a run `length` bytes long.
    init(hash: UInt64, length: Int) {
        self.hash = hash
        power = Self.power(length)
    }

    /// The hash of `bytes`.
    ///
    /// Eight bytes at a time, as `hash·base⁸ + Σ (bᵢ + 1)·base⁷⁻ⁱ`: the eight terms do not
    /// wait for each other, so one multiplication in eight waits for the one before, and
    /// their sum is reduced once. Byte by byte, every step waited, and hashing the edited
    /// leaf was most of a keystroke's time.
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
            // Each product is below 2⁹·2⁶¹, so the eight add up in 128 bits without a carry
            // out, and are reduced once, not each on its own.
            var sum = Wide()
            sum.add(UInt64(bytes[index]) + 1, times: p7)
            sum.add(UInt64(bytes[index + 1]) + 1, times: p6)
            sum.add(UInt64(bytes[index + 2]) + 1, times: p5)
            sum.add(UInt64(bytes[index + 3]) + 1, times: p4)
            sum.add(UInt64(bytes[index + 4]) + 1, times: p3)
            sum.add(UInt64(bytes[index + 5]) + 1, times: p2)
            sum.add(UInt64(bytes[index + 6]) + 1, times: p1)
            sum.add(UInt64(bytes[index + 7]) + 1, times: 1)
            hash = Self.add(Self.multiply(hash, p8), sum.reduced)
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

    /// The hash of this run followed by `next`.
    func followed(by next: TextHash) -> TextHash {
        var result = TextHash()
        result.hash = Self.add(Self.multiply(hash, next.power), next.hash)
        result.power = Self.multiply(power, next.power)
        return result
    }

    /// The hash of the run that follows `prefix` in this one, `suffixLength` bytes long: a
    /// run's hash is known from the whole's and the other part's, so only the shorter part of
    /// a cut leaf is ever hashed byte by byte.
    func droppingPrefix(_ prefix: TextHash, suffixLength: Int) -> TextHash {
        var result = TextHash()
        result.power = Self.power(suffixLength)
        result.hash = Self.subtract(hash, Self.multiply(prefix.hash, result.power))
        return result
    }

    /// The hash of the run before `suffix` (`suffixLength` bytes long) in this one, which is
    /// `prefixLength` bytes long: see ``droppingPrefix(_:suffixLength:)``.
    func droppingSuffix(_ suffix: TextHash, suffixLength: Int, prefixLength: Int) -> TextHash {
        var result = TextHash()
        result.hash = Self.multiply(Self.subtract(hash, suffix.hash), Self.inversePower(suffixLength))
        result.power = Self.power(prefixLength)
        return result
    }

    /// The hash of this run with `middle` (`length` bytes) cut out of it, where `suffix` is
    /// the rest of the run after `middle`. This run is `x·B^(m+s) + middle·B^s + suffix` and
    /// the result `x·B^s + suffix`: only the cut part's length is inverted, so a short cut
    /// costs a few multiplications however long the run.
    func cuttingOut(_ middle: TextHash, length: Int, before suffix: TextHash) -> TextHash {
        let inverse = Self.inversePower(length)
        let shiftedFront = Self.subtract(Self.subtract(hash, Self.multiply(middle.hash, suffix.power)), suffix.hash)
        var result = TextHash()
        result.hash = Self.add(Self.multiply(shiftedFront, inverse), suffix.hash)
        result.power = Self.multiply(power, inverse)
        return result
    }

    /// The hash of this run with `middle` put in just before `suffix`, the end of the run:
    /// `x·B^s + suffix` becomes `x·B^(m+s) + middle·B^s + suffix`, with no power to compute.
    func inserting(_ middle: TextHash, before suffix: TextHash) -> TextHash {
        var result = TextHash()
        let front = Self.multiply(Self.subtract(hash, suffix.hash), middle.power)
        result.hash = Self.add(Self.add(front, Self.multiply(middle.hash, suffix.power)), suffix.hash)
        result.power = Self.multiply(power, middle.power)
        return result
    }

    static func multiply(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return reduce(high: high, low: low)
    }

    /// `high·2⁶⁴ + low` modulo the modulus, for `high` below 2⁵⁸ (a product of two numbers
    /// below the modulus, or a `Wide` sum of eight bytes' terms).
    static func reduce(high: UInt64, low: UInt64) -> UInt64 {
        // 2⁶¹ ≡ 1: the bits above 61 fold down.
        var value = (low & modulus) &+ ((low >> 61) | (high << 3))
        if value >= modulus { value -= modulus }
        if value >= modulus { value -= modulus }
        return value
    }

    /// A sum of products in 128 bits, reduced once at the end.
    private struct Wide {
        var high: UInt64 = 0
        var low: UInt64 = 0

        mutating func add(_ a: UInt64, times b: UInt64) {
            let (productHigh, productLow) = a.multipliedFullWidth(by: b)
            let (sum, carried) = low.addingReportingOverflow(productLow)
            low = sum
            high &+= productHigh &+ (carried ? 1 : 0)
        }

        var reduced: UInt64 { TextHash.reduce(high: high, low: low) }
    }

    static func add(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let value = a &+ b
        return value >= modulus ? value - modulus : value
    }

    /// `a − b`, both below the modulus.
    static func subtract(_ a: UInt64, _ b: UInt64) -> UInt64 {
        a >= b ? a - b : a &+ (modulus - b)
    }

    static func power(_ exponent: Int) -> UInt64 {
        powers[exponent] ?? power(of: base, exponent)
    }

    /// `base` to the power of minus `exponent`: what undoes a multiplication by
    /// `power(exponent)`.
    static func inversePower(_ exponent: Int) -> UInt64 {
        inversePowers[exponent] ?? power(of: inverseBase, exponent)
    }

    /// The inverse of `base` (Fermat: `base` to the modulus minus 2, the modulus being prime).
    static let inverseBase = power(of: base, Int(modulus - 2))

    /// The powers of `base` and of its inverse up to `PowerTable.limit`: the lengths of runs
    /// inside a leaf, which every edit and fingerprint asks for, each by a dozen squarings.
    private static let powers = PowerTable(base)
    private static let inversePowers = PowerTable(inverseBase)

    /// A number's powers below `limit` as the product of two read from tables, of
    /// `exponent % 64` and of `exponent - exponent % 64`: 192 numbers, not one per exponent.
    struct PowerTable {
        static let limit = 8_192
        private let low: [UInt64]
        private let high: [UInt64]

        init(_ base: UInt64) {
            low = (0..<64).map { TextHash.power(of: base, $0) }
            let step = TextHash.power(of: base, 64)
            var high: [UInt64] = [1]
            while high.count < Self.limit / 64 { high.append(TextHash.multiply(high[high.count - 1], step)) }
            self.high = high
        }

        /// The power, or `nil` for an exponent outside the table.
        subscript(exponent: Int) -> UInt64? {
            guard exponent >= 0, exponent < Self.limit else { return nil }
            return TextHash.multiply(low[exponent & 63], high[exponent >> 6])
        }
    }

    /// `base` to the power of `exponent` by repeated squaring: what the tables hold, and
    /// every power beyond them.
    static func power(of base: UInt64, _ exponent: Int) -> UInt64 {
        var (result, square, remaining) = (UInt64(1), base, exponent)
        while remaining > 0 {
            if remaining & 1 == 1 { result = multiply(result, square) }
            square = multiply(square, square)
            remaining >>= 1
        }
        return result
    }
}
