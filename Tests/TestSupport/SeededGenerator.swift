/// A small, fast, seedable generator (SplitMix64), so every random test can be replayed from
/// the seed it prints, and every benchmark run sees the same positions and contents for a
/// given `--seed`.
///
/// The one generator of the repository: the benchmarks link this file (through symlinks in
/// `Benchmarks/`), so a test and a benchmark given the same seed draw the same numbers.
/// SplitMix64 is tiny and statistically fine for choosing positions and words; neither needs
/// cryptographic quality.
public struct SeededGenerator: RandomNumberGenerator, Sendable {

    private var state: UInt64

    /// A generator whose numbers are a function of `seed` alone.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
