import Testing
import TestSupport
@testable import TextBuffer

/// A run's hash is made eight bytes at a time, an edit brings a leaf's hash and unit counts up
/// to date from the old ones and the shorter side of the edit, and a fingerprint takes a cut
/// leaf's hash from the shorter side of the cut: these check each against the hash by its
/// definition, byte by byte (the leaves through `_leafSummariesCheck()`, which traps).
@Suite("TextBuffer: hashes and counts kept up to date without reading whole leaves")
struct TextBufferHashTests {

    @Test("A run's hash, taken eight bytes at a time, is its hash by definition, at every length")
    func hashByBlocksIsTheDefinition() {
        var generator = SeededGenerator(seed: 37)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.withUnsafeBytes { raw in
                #expect(TextHash(of: raw) == TextHash(byteByByte: raw), "length \(length)")
            }
        }
        // The largest bytes make the largest terms: eight 0xFF in a block must not overflow.
        let high = [UInt8](repeating: 0xFF, count: 4_096)
        high.withUnsafeBytes { #expect(TextHash(of: $0) == TextHash(byteByByte: $0)) }
    }

    @Test("A run's hash comes out of the whole's and the other part's, at every cut")
    func droppingAPartIsHashingTheOther() {
        var generator = SeededGenerator(seed: 41)
        for length in [0, 1, 7, 8, 9, 100, 4_096] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes.withUnsafeBytes { raw in
                let whole = TextHash(byteByByte: raw)
                for cut in Set([0, length / 3, length / 2, length].map { Swift.min($0, length) }) {
                    let front = TextHash(byteByByte: UnsafeRawBufferPointer(rebasing: raw[..<cut]))
                    let back = TextHash(byteByByte: UnsafeRawBufferPointer(rebasing: raw[cut...]))
                    #expect(whole.droppingPrefix(front, suffixLength: length - cut) == back, "length \(length), cut \(cut)")
                    #expect(whole.droppingSuffix(back, suffixLength: length - cut, prefixLength: cut) == front, "length \(length), cut \(cut)")
                    // Up to 9 bytes from the cut on, cut out of the whole and put back in.
                    let end = Swift.min(length, cut + 9)
                    let middle = TextHash(byteByByte: UnsafeRawBufferPointer(rebasing: raw[cut..<end]))
                    let rest = TextHash(byteByByte: UnsafeRawBufferPointer(rebasing: raw[end...]))
                    let outside = (Array(raw[..<cut]) + Array(raw[end...])).withUnsafeBytes { TextHash(byteByByte: $0) }
                    #expect(whole.cuttingOut(middle, length: end - cut, before: rest) == outside, "length \(length), cut \(cut)..<\(end)")
                    #expect(outside.inserting(middle, before: rest) == whole, "length \(length), cut \(cut)..<\(end)")
                }
            }
        }
    }

    @Test("After every edit, shared or not, each leaf's hash and counts are those of its bytes",
          arguments: [(seed: UInt64(51), length: 3_000), (52, 40_000), (53, 200_000)])
    func leavesStayExact(seed: UInt64, length: Int) {
        var factory = TextFactory(seed: seed)
        var text = factory.text(length)
        var buffer = TextBuffer(text)
        var kept: [TextBuffer] = []
        for round in 0..<300 {
            // Half the edits write a leaf another version shares (the copy path), half a
            // leaf this buffer alone holds (in place).
            if round.isMultiple(of: 2) { kept.append(buffer) }
            let (range, replacement) = smallEdit(of: text, using: &factory)
            buffer.replaceUTF8Subrange(range, with: replacement)
            text = replacingUTF8(text, range, with: replacement)
            buffer._leafSummariesCheck()
        }
        #expect(holds(buffer, text))
        for version in kept { version._leafSummariesCheck() }
    }

    @Test("A fingerprint outside any run is the hash of the bytes outside it, by definition",
          arguments: [(seed: UInt64(61), length: 2_000), (62, 50_000)])
    func fingerprintIsTheDefinition(seed: UInt64, length: Int) {
        var factory = TextFactory(seed: seed)
        let text = factory.text(length)
        let buffer = TextBuffer(text)
        let bytes = Array(text.utf8)
        for _ in 0..<200 {
            let lower = factory.boundary(in: bytes)
            var upper = Swift.min(bytes.count, lower + Int.random(in: 0...300, using: &factory.random))
            while upper < bytes.count, bytes[upper] & 0xC0 == 0x80 { upper += 1 }
            #expect(buffer.fingerprint(outside: lower..<upper) == fingerprint(of: bytes, outside: lower..<upper), "outside \(lower)..<\(upper)")
        }
    }

    @Test("Edits and fingerprints near a leaf's last edit, taken from its cut, are exact",
          arguments: [(seed: UInt64(71), length: 3_000), (72, 60_000)])
    func editsNearTheCutStayExact(seed: UInt64, length: Int) {
        var factory = TextFactory(seed: seed)
        var text = factory.text(length)
        var buffer = TextBuffer(text)
        var kept: [TextBuffer] = []
        var position = 0
        for round in 0..<400 {
            if round.isMultiple(of: 3) { kept.append(buffer) }
            // Mostly next to the last edit (typing on, deleting back, a little before or
            // after it, where the cut is nearer than either end), sometimes anywhere.
            let bytes = Array(text.utf8)
            var lower = round.isMultiple(of: 25)
                ? factory.boundary(in: bytes)
                : Swift.max(0, Swift.min(bytes.count, position + Int.random(in: -40...40, using: &factory.random)))
            while lower > 0, lower < bytes.count, bytes[lower] & 0xC0 == 0x80 { lower -= 1 }
            var upper = Swift.min(bytes.count, lower + Int.random(in: 0...3, using: &factory.random))
            while upper < bytes.count, bytes[upper] & 0xC0 == 0x80 { upper += 1 }
            let replacement = Int.random(in: 0..<4, using: &factory.random) == 0 ? "" : factory.piece()
            buffer.replaceUTF8Subrange(lower..<upper, with: replacement)
            text = replacingUTF8(text, lower..<upper, with: replacement)
            position = lower + replacement.utf8.count
            buffer._leafSummariesCheck()
            // A step's fingerprint cuts the text at the edit's end; others near it.
            let edited = Array(text.utf8)
            for end in [position, Swift.min(edited.count, position + 5)] {
                var start = Swift.max(0, lower - Int.random(in: 0...2, using: &factory.random))
                while start > 0, edited[start] & 0xC0 == 0x80 { start -= 1 }
                var stop = Swift.max(start, end)
                while stop < edited.count, edited[stop] & 0xC0 == 0x80 { stop += 1 }
                #expect(buffer.fingerprint(outside: start..<stop) == fingerprint(of: edited, outside: start..<stop), "round \(round), outside \(start)..<\(stop)")
            }
        }
        #expect(holds(buffer, text))
        for version in kept { version._leafSummariesCheck() }
    }

    @Test("The tables' powers of the base and of its inverse are those by repeated squaring")
    func powerTablesAreSquaring() {
        for exponent in 0..<(TextHash.PowerTable.limit + 70) {
            #expect(TextHash.power(exponent) == TextHash.power(of: TextHash.base, exponent), "power \(exponent)")
            #expect(TextHash.inversePower(exponent) == TextHash.power(of: TextHash.inverseBase, exponent), "inverse power \(exponent)")
        }
        #expect(TextHash.multiply(TextHash.power(4_097), TextHash.inversePower(4_097)) == 1)
    }

    /// The fingerprint of `bytes` outside `range` by its definition: the bytes either side
    /// hashed one by one.
    private func fingerprint(of bytes: [UInt8], outside range: Range<Int>) -> UInt64 {
        Array(bytes[..<range.lowerBound] + bytes[range.upperBound...]).withUnsafeBytes { TextHash(byteByByte: $0).hash }
    }

    /// A short edit, as typing makes: most stay inside one leaf, which is the path the
    /// leaf's summary is made incrementally on.
    private func smallEdit(of text: String, using factory: inout TextFactory) -> (Range<Int>, String) {
        let bytes = Array(text.utf8)
        let lower = factory.boundary(in: bytes)
        var upper = Swift.min(bytes.count, lower + Int.random(in: 0...12, using: &factory.random))
        while upper < bytes.count, bytes[upper] & 0xC0 == 0x80 { upper += 1 }
        let replacement = Int.random(in: 0..<4, using: &factory.random) == 0 ? "" : factory.piece()
        return (lower..<upper, replacement)
    }
}
