import Foundation

/// A JSON text (RFC 8259, UTF-8), parsed once into a flat list of its values, in the order
/// they appear, for ``JSONDocumentDecoder`` to read without parsing anything twice.
///
/// Each value records its kind and where its text lies; a container records how many
/// values it holds and where the value after its contents starts, so a reader skips a
/// whole container in one step. An object's contents alternate key (a string) and value.
/// Strings and numbers are checked here (their grammar, escapes, UTF-8) but converted only
/// when a reader asks for them, so what nobody reads costs one scan.
///
/// Written for `HistoryArchive(json:)`: it accepts the JSON texts `JSONDecoder` accepts with
/// its default options (no JSON5), nested fewer than ``maximumDepth`` levels, with the same
/// leniencies: a UTF-8 byte-order mark before the value, and one comma after the last element
/// of an array or the last member of an object.
final class JSONDocument {

    /// What a value is.
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, array, object
    }

    /// One value.
    struct Value {
        var kind: Kind
        /// Strings: ``hasEscapes`` and ``isNotASCII``; numbers: ``isNotInteger``, ``isNegative``.
        var flags: UInt8
        /// Strings: the first byte after the opening quote; numbers: the first byte;
        /// containers: the opening bracket.
        var start: UInt32
        /// Strings: the closing quote; numbers: the byte after the last.
        var end: UInt32
        /// Containers: how many elements, or members (key and value pairs).
        var count: UInt32
        /// The index of the value after this one and everything it contains.
        var next: UInt32

        static var hasEscapes: UInt8 { 1 }
        static var isNotASCII: UInt8 { 2 }
        static var isNotInteger: UInt8 { 1 }
        static var isNegative: UInt8 { 2 }
    }

    /// Nesting this deep is refused, as `JSONDecoder` refuses it; a parser that recurses must
    /// stop somewhere.
    static var maximumDepth: Int { 512 }

    let bytes: [UInt8]
    /// Constant once parsed (a `let`, so reading it takes no exclusivity check).
    let values: [Value]

    /// Parses `bytes`, which must hold one JSON value, with white space around it at most.
    ///
    /// - Throws: ``JSONSyntaxError`` naming the first byte that is not valid JSON.
    init(_ bytes: [UInt8]) throws(JSONSyntaxError) {
        self.bytes = bytes
        guard bytes.count < Int(UInt32.max) else {
            throw JSONSyntaxError("the text is 4 GB or longer", at: 0)
        }
        var values: [Value] = []
        values.reserveCapacity(bytes.count / 8 + 4)
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
            var parser = Parser(bytes: buffer, values: [])
            swap(&parser.values, &values)
            defer { swap(&parser.values, &values) }
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
            parser.skipSpace()
            try parser.parseValue(depth: 0)
            parser.skipSpace()
            guard parser.position == buffer.count else {
                throw JSONSyntaxError("unexpected text after the value", at: parser.position)
            }
        }
        self.values = values
    }

    /// The bytes of a string or number value.
    @inline(__always)
    func text(of value: Value) -> ArraySlice<UInt8> {
        bytes[Int(value.start)..<Int(value.end)]
    }
}

/// Why a text is not JSON, and where.
package struct JSONSyntaxError: Error, CustomStringConvertible {
    package let reason: String
    /// The offset of the byte where reading stopped.
    package let offset: Int

    init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    package var description: String { "\(reason) at byte \(offset)" }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var values: [JSONDocument.Value]
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, values: [JSONDocument.Value]) {
        self.bytes = bytes
        self.values = values
    }

    @inline(__always)
    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private func unexpected(_ expected: String) -> JSONSyntaxError {
        guard position < bytes.count else {
            return JSONSyntaxError("the text ends where \(expected) should be", at: position)
        }
        let byte = bytes[position]
        let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return JSONSyntaxError("\(shown) where \(expected) should be", at: position)
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) {
        guard position < bytes.count else { throw unexpected("a value") }
        switch bytes[position] {
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true", .true)
        case UInt8(ascii: "f"): try parseLiteral("false", .false)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        default: throw unexpected("a value")
        }
    }

    private mutating func append(_ kind: JSONDocument.Kind, flags: UInt8 = 0, start: Int, end: Int) {
        values.append(JSONDocument.Value(
            kind: kind, flags: flags, start: UInt32(truncatingIfNeeded: start), end: UInt32(truncatingIfNeeded: end),
            count: 0, next: UInt32(truncatingIfNeeded: values.count + 1)
        ))
    }

    private mutating func parseLiteral(_ word: StaticString, _ kind: JSONDocument.Kind) throws(JSONSyntaxError) {
        let start = position
        let length = word.utf8CodeUnitCount
        guard bytes.count - position >= length else { throw unexpected("a value") }
        for offset in 0..<length where bytes[position + offset] != word.utf8Start[offset] {
            position += offset
            throw unexpected("'\(word)'")
        }
        position += length
        append(kind, start: start, end: position)
    }

    private mutating func parseNumber() throws(JSONSyntaxError) {
        let start = position
        var flags: UInt8 = 0
        if bytes[position] == UInt8(ascii: "-") {
            flags |= JSONDocument.Value.isNegative
            position += 1
        }
        guard position < bytes.count, isDigit(bytes[position]) else { throw unexpected("a digit") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            flags |= JSONDocument.Value.isNotInteger
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw unexpected("a digit") }
            skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            flags |= JSONDocument.Value.isNotInteger
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw unexpected("a digit") }
            skipDigits()
        }
        append(.number, flags: flags, start: start, end: position)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always)
    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    /// A string, from its opening quote; checks its escapes and its UTF-8.
    mutating func parseString() throws(JSONSyntaxError) {
        position += 1
        let start = position
        var flags: UInt8 = 0
        while true {
            skipPlainASCII()
            guard position < bytes.count else {
                throw JSONSyntaxError("the text ends inside a string", at: position)
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags |= JSONDocument.Value.hasEscapes
                try skipEscape()
            } else if byte < 0x20 {
                throw JSONSyntaxError("an unescaped control character (0x\(String(byte, radix: 16))) in a string", at: position)
            } else if byte < 0x80 {
                position += 1
            } else {
                flags |= JSONDocument.Value.isNotASCII
                try skipUTF8Sequence()
            }
        }
        append(.string, flags: flags, start: start, end: position)
        position += 1
    }

    /// Moves past the bytes of a string that need no check (ASCII, not a quote, a backslash or
    /// a control character), eight at a time, to the first that does, or to where fewer than
    /// eight are left; most of a string's text is one such run.
    @inline(__always)
    private mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while bytes.count - position >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self))
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            // The high bit of each byte that is a quote, a backslash, below 0x20 or above 0x7F
            // (the classic tests for a zero byte, and for a byte below a bound): a borrow runs
            // only upwards, so the lowest bit set is exactly the first such byte.
            let marks = (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                | ((word &- ones &* 0x20) & ~word) | word) & highs
            guard marks == 0 else {
                position += marks.trailingZeroBitCount >> 3
                return
            }
            position += 8
        }
    }

    private mutating func skipEscape() throws(JSONSyntaxError) {
        position += 1
        guard position < bytes.count else {
            throw JSONSyntaxError("the text ends inside an escape", at: position)
        }
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            let escapeStart = position - 1
            let unit = try hexUnit()
            if (0xDC00...0xDFFF).contains(unit) {
                throw JSONSyntaxError("a low surrogate (\\u\(String(unit, radix: 16))) without a high one before it", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError("a high surrogate (\\u\(String(unit, radix: 16))) without a low one after it", at: escapeStart)
                }
                position += 1
                let low = try hexUnit()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw JSONSyntaxError("a high surrogate (\\u\(String(unit, radix: 16))) without a low one after it", at: escapeStart)
                }
            }
        default:
            throw JSONSyntaxError("an invalid escape", at: position - 1)
        }
    }

    /// The four hexadecimal digits after a `u`, at `position`; moves past them.
    private mutating func hexUnit() throws(JSONSyntaxError) -> UInt16 {
        position += 1
        guard bytes.count - position >= 4 else {
            throw JSONSyntaxError("the text ends inside a \\u escape", at: position)
        }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = hexDigit(bytes[position]) else {
                throw JSONSyntaxError("a \\u escape without four hexadecimal digits", at: position)
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    /// One UTF-8 sequence of more than one byte, from its first byte: well formed, no
    /// surrogates, no overlong forms, nothing above U+10FFFF.
    private mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let first = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw JSONSyntaxError("invalid UTF-8 in a string", at: position)
        }
        guard bytes.count - position >= length else {
            throw JSONSyntaxError("invalid UTF-8 in a string", at: position)
        }
        let second = bytes[position + 1]
        guard second >= lower, second <= upper else {
            throw JSONSyntaxError("invalid UTF-8 in a string", at: position)
        }
        for offset in 2..<max(length, 2) where bytes[position + offset] & 0xC0 != 0x80 {
            throw JSONSyntaxError("invalid UTF-8 in a string", at: position)
        }
        position += length
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) {
        let index = try open(.array, depth: depth)
        var count: UInt32 = 0
        if !closesEmpty(UInt8(ascii: "]")) {
            repeat {
                try parseValue(depth: depth)
                count += 1
            } while try !closesAfterItem(UInt8(ascii: "]"), expected: "',' or ']'")
        }
        close(index, count: count)
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) {
        let index = try open(.object, depth: depth)
        var count: UInt32 = 0
        if !closesEmpty(UInt8(ascii: "}")) {
            repeat {
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw unexpected("a key") }
                try parseString()
                skipSpace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw unexpected("':'") }
                position += 1
                skipSpace()
                try parseValue(depth: depth)
                count += 1
            } while try !closesAfterItem(UInt8(ascii: "}"), expected: "',' or '}'")
        }
        close(index, count: count)
    }

    // The parts arrays and objects share; inlined, so that each loop stays as fast as when it
    // was written out in full.

    /// Records an array or object from its opening bracket, at `position`, and moves past the
    /// bracket; returns the container's index.
    @inline(__always)
    private mutating func open(_ kind: JSONDocument.Kind, depth: Int) throws(JSONSyntaxError) -> Int {
        guard depth < JSONDocument.maximumDepth else {
            throw JSONSyntaxError("arrays and objects nested deeper than \(JSONDocument.maximumDepth) levels", at: position)
        }
        let index = values.count
        append(kind, start: position, end: position)
        position += 1
        skipSpace()
        return index
    }

    /// Whether the container closes at once, with `closing`; moves past it if so.
    @inline(__always)
    private mutating func closesEmpty(_ closing: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == closing else { return false }
        position += 1
        return true
    }

    /// After an element or member: moves past the comma, or the closing bracket, that must
    /// follow, and says whether the container closed.
    @inline(__always)
    private mutating func closesAfterItem(_ closing: UInt8, expected: String) throws(JSONSyntaxError) -> Bool {
        skipSpace()
        guard position < bytes.count else { throw unexpected(expected) }
        if bytes[position] == UInt8(ascii: ",") {
            position += 1
            skipSpace()
            // One comma after the last element or member, as `JSONDecoder` allows.
            return closesEmpty(closing)
        }
        guard closesEmpty(closing) else { throw unexpected(expected) }
        return true
    }

    /// Completes the record of the container at `index`, whose closing bracket is just behind.
    @inline(__always)
    private mutating func close(_ index: Int, count: UInt32) {
        values[index].count = count
        values[index].next = UInt32(truncatingIfNeeded: values.count)
        values[index].end = UInt32(truncatingIfNeeded: position)
    }
}

@inline(__always)
func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

// MARK: - Reading values

extension JSONDocument {

    /// The string at `index`, which must be a string value, its escapes resolved.
    func string(at index: Int) -> String {
        let value = values[index]
        return bytes.withUnsafeBufferPointer { buffer in
            let run = UnsafeBufferPointer(rebasing: buffer[Int(value.start)..<Int(value.end)])
            guard value.flags & Value.hasEscapes != 0 else {
                // Checked when parsed: valid UTF-8, so nothing is repaired.
                return String(decoding: run, as: UTF8.self)
            }
            return String(unsafeUninitializedCapacity: run.count) { output in
                unescape(run, into: output)
            }
        }
    }

    /// The index of the value of the member of the object at `object` whose key is `key`,
    /// the first one if the key appears more than once (as `JSONDecoder` reads it); keys compare as `String`'s `==` does
    /// (canonical equivalence), byte by byte when both are ASCII.
    func member(_ key: String, of object: Int) -> Int? {
        var key = key
        return key.withUTF8 { keyBytes in
            var keyIsASCII = true
            for byte in keyBytes where byte >= 0x80 { keyIsASCII = false; break }
            return values.withUnsafeBufferPointer { values in
                bytes.withUnsafeBufferPointer { bytes in
                    var member = object + 1
                    for _ in 0..<Int(values[object].count) {
                        let name = values[member]
                        if keyIsASCII && name.flags == 0 {
                            // Plain ASCII both: equal exactly when their bytes are. Compared
                            // here, not by `memcmp`: keys are a few bytes, and the call cost more.
                            if Int(name.end &- name.start) == keyBytes.count,
                               areEqual(bytes.baseAddress! + Int(name.start), keyBytes.baseAddress, count: keyBytes.count) {
                                return member + 1
                            }
                        } else if string(at: member) == String(decoding: keyBytes, as: UTF8.self) {
                            return member + 1
                        }
                        member = Int(values[member + 1].next)
                    }
                    return nil
                }
            }
        }
    }
}

/// Whether the `count` bytes at `first` and at `second` are equal.
@inline(__always)
private func areEqual(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>?, count: Int) -> Bool {
    var offset = 0
    while offset < count {
        guard first[offset] == second.unsafelyUnwrapped[offset] else { return false }
        offset += 1
    }
    return true
}

/// Writes the unescaped content of a checked string into `output`, which is at least as long;
/// returns how many bytes it wrote.
private func unescape(_ run: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var read = 0
    var written = 0
    func put(_ byte: UInt8) {
        output[written] = byte
        written += 1
    }
    func hex(_ at: Int) -> UInt32 {
        var unit: UInt32 = 0
        for offset in 0..<4 { unit = unit << 4 | UInt32(hexDigit(run[at + offset]) ?? 0) }
        return unit
    }
    while read < run.count {
        let byte = run[read]
        guard byte == UInt8(ascii: "\\") else {
            put(byte)
            read += 1
            continue
        }
        let escape = run[read + 1]
        read += 2
        switch escape {
        case UInt8(ascii: "b"): put(0x08)
        case UInt8(ascii: "f"): put(0x0C)
        case UInt8(ascii: "n"): put(0x0A)
        case UInt8(ascii: "r"): put(0x0D)
        case UInt8(ascii: "t"): put(0x09)
        case UInt8(ascii: "u"):
            var scalar = hex(read)
            read += 4
            if (0xD800...0xDBFF).contains(scalar) {
                // Checked when parsed: a low surrogate escape follows.
                let low = hex(read + 2)
                read += 6
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            for unit in UTF8.encode(Unicode.Scalar(scalar)!)! { put(unit) }
        default: put(escape)  // `"`, `\`, `/`
        }
    }
    return written
}
