import Foundation

/// A `Decoder` over a parsed ``JSONDocument``: what `JSONDecoder` with its default options
/// reads, read the same way (the same values, the same kinds of errors at the same coding
/// paths), without parsing any value twice or copying any container.
///
/// Like `JSONDecoder`'s defaults: `Data` is read from Base64, `URL` from its string,
/// `Decimal` from the number's text, `Date` by its own `Decodable` conformance; an integer
/// type reads a number with a fraction or an exponent only when its value is an integer it
/// holds; a key that appears twice in an object reads as its first value.
///
/// `package`, so that the fuzz targets (one package with the library) compare it with
/// `JSONDecoder` on any type.
package enum JSONDocumentDecoding {

    /// Parses `bytes` and decodes a `T` from it.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with a ``JSONSyntaxError`` as its underlying
    ///   error when `bytes` is not JSON, or whatever `T`'s decoding throws.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDocumentDecoder(document: document(from: bytes), index: 0, path: nil).unwrap(T.self)
    }

    /// Parses `bytes`, refused as `JSONDecoder` refuses a text that is not JSON.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with a ``JSONSyntaxError`` as its underlying error.
    static func document(from bytes: [UInt8]) throws -> JSONDocument {
        do {
            return try JSONDocument(bytes)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "The given data was not valid JSON (\(error)).", underlyingError: error
            ))
        }
    }
}

/// Where a value lies in the document, as a list linked back to the root: built one key at a
/// time as decoding goes down, turned into an array only when asked for (in an error).
final class JSONCodingPath: @unchecked Sendable {
    let parent: JSONCodingPath?
    let key: any CodingKey
    let depth: Int

    init(parent: JSONCodingPath?, key: any CodingKey) {
        self.parent = parent
        self.key = key
        self.depth = (parent?.depth ?? 0) + 1
    }

    static func array(_ path: JSONCodingPath?) -> [any CodingKey] {
        guard let path else { return [] }
        var keys = [any CodingKey]()
        keys.reserveCapacity(path.depth)
        var link: JSONCodingPath? = path
        while let current = link {
            keys.append(current.key)
            link = current.parent
        }
        return keys.reversed()
    }

    static func appending(_ key: any CodingKey, to path: JSONCodingPath?) -> [any CodingKey] {
        array(path) + [key]
    }
}

/// The key of an array's element, as `JSONDecoder` names it.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

struct JSONDocumentDecoder: Decoder {
    let document: JSONDocument
    /// The index of the value decoded.
    let index: Int
    let path: JSONCodingPath?

    var codingPath: [any CodingKey] { JSONCodingPath.array(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// `codingPath.count`, without building the path (see `DecodedNode`).
    var codingDepth: Int { path?.depth ?? 0 }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let value = document.values[index]
        guard value.kind == .object else {
            throw mismatch([String: Any].self, value, codingPath: codingPath)
        }
        return KeyedDecodingContainer(JSONKeyedContainer<Key>(document: document, object: index, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = document.values[index]
        guard value.kind == .array else {
            throw mismatch([Any].self, value, codingPath: codingPath)
        }
        return JSONUnkeyedContainer(document: document, array: index, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONSingleValueContainer(decoder: self)
    }

    /// A `T`, through its conformance or, for the types `JSONDecoder` reads its own way, as it does.
    @inline(__always)
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        try document.decodeLeaf(T.self, at: index, codingPath: codingPath) { try unwrapOtherThanLeaf(T.self) }
    }

    /// ``unwrap(_:)`` for a value `JSONDocument.decodeLeaf` did not read: for a caller that
    /// has already asked it (``JSONObjectReader``), so the leaf types are not tested twice.
    @inline(__always)
    func unwrapOtherThanLeaf<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == UInt64.self { return try document.decodeInteger(UInt64.self, at: index, codingPath: codingPath) as! T }
        if T.self == Data.self { return try decodeData() as! T }
        if T.self == URL.self { return try decodeURL() as! T }
        if T.self == Decimal.self { return try decodeDecimal() as! T }
        return try T(from: self)
    }

    private func decodeData() throws -> Data {
        try decodeString(as: { Data(base64Encoded: $0) }, refusing: "Encountered Data is not valid Base64.")
    }

    private func decodeURL() throws -> URL {
        try decodeString(as: { URL(string: $0) }, refusing: "Invalid URL string.")
    }

    /// A value `JSONDecoder` reads from a string, refused with its words when `convert` makes
    /// none of it.
    private func decodeString<Converted>(as convert: (String) -> Converted?, refusing description: String) throws -> Converted {
        let string = try document.decodeString(at: index, codingPath: codingPath)
        guard let value = convert(string) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
        }
        return value
    }

    private func decodeDecimal() throws -> Decimal {
        let value = document.values[index]
        guard value.kind == .number else {
            throw document.expected(Decimal.self, at: index, codingPath: codingPath)
        }
        let text = String(decoding: document.text(of: value), as: UTF8.self)
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath, debugDescription: "Parsed JSON number <\(text)> does not fit in Decimal."
            ))
        }
        return decimal
    }
}

/// The error for a value of the wrong kind, as `JSONDecoder` reports it.
func mismatch(_ type: Any.Type, _ value: JSONDocument.Value, codingPath: [any CodingKey]) -> DecodingError {
    if value.kind == .null {
        let what = type == [String: Any].self ? "keyed decoding container" : type == [Any].self ? "unkeyed decoding container" : "value of type \(type)"
        return .valueNotFound(type, DecodingError.Context(
            codingPath: codingPath, debugDescription: "Cannot get \(what) -- found null value instead"
        ))
    }
    let found = switch value.kind {
    case .null: "null"
    case .false, .true: "bool"
    case .number: "number"
    case .string: "a string"
    case .array: "an array"
    case .object: "a dictionary"
    }
    return .typeMismatch(type, DecodingError.Context(
        codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(found) instead."
    ))
}

// MARK: - Scalars

extension JSONDocument {

    /// The UUID a string of exactly 36 characters writes as `UUID.uuidString` does (upper or
    /// lower case), or `nil` for any other string.
    func canonicalUUID(_ value: Value) -> UUID? {
        guard value.end - value.start == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let isCanonical = bytes.withUnsafeBufferPointer { buffer in
            withUnsafeMutableBytes(of: &uuid) { output in
                var offset = Int(value.start)
                for byte in 0..<16 {
                    if byte == 4 || byte == 6 || byte == 8 || byte == 10 {
                        guard buffer[offset] == UInt8(ascii: "-") else { return false }
                        offset += 1
                    }
                    guard let high = hexDigit(buffer[offset]), let low = hexDigit(buffer[offset + 1]) else { return false }
                    output[byte] = high << 4 | low
                    offset += 2
                }
                return true
            }
        }
        return isCanonical ? UUID(uuid: uuid) : nil
    }

    /// A value of a common leaf type, read here to what its `Decodable` conformance reads
    /// over this document: `String`, `Int`, `Bool`, `Double`, and a `UUID` in the form
    /// `UUID.uuidString` writes (36 characters, hexadecimal digits of either case, hyphens
    /// where it puts them); a value of any other type, or a `UUID` written otherwise (which
    /// `UUID`'s own decoding accepts or refuses as `JSONDocument` does), by `otherwise`.
    /// (`UUID(uuidString:)` scans with `sscanf`, which cost a tree array's step 8% of its
    /// load.) No `T?` on the way: in code generic over `T`, its metadata is looked up at run
    /// time.
    @inline(__always)
    func decodeLeaf<T>(
        _ type: T.Type, at index: Int, codingPath: @autoclosure () -> [any CodingKey], otherwise: () throws -> T
    ) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decodeString(at: index, codingPath: codingPath()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try decodeInteger(Int.self, at: index, codingPath: codingPath()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(at: index, codingPath: codingPath()), to: T.self) }
        if T.self == Double.self {
            return unsafeBitCast(try decodeFloatingPoint(Double.self, at: index, codingPath: codingPath()), to: T.self)
        }
        if T.self == UUID.self {
            let value = values[index]
            if value.kind == .string, value.flags == 0, let uuid = canonicalUUID(value) {
                return unsafeBitCast(uuid, to: T.self)
            }
        }
        return try otherwise()
    }

    func expected(_ type: Any.Type, at index: Int, codingPath: @autoclosure () -> [any CodingKey]) -> DecodingError {
        mismatch(type, values[index], codingPath: codingPath())
    }

    @inline(__always)
    func decodeString(at index: Int, codingPath: @autoclosure () -> [any CodingKey]) throws -> String {
        guard values[index].kind == .string else { throw expected(String.self, at: index, codingPath: codingPath()) }
        return string(at: index)
    }

    @inline(__always)
    func decodeBool(at index: Int, codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch values[index].kind {
        case .true: return true
        case .false: return false
        default: throw expected(Bool.self, at: index, codingPath: codingPath())
        }
    }

    /// An integer: its digits read directly (refused when `T` does not hold them), or a
    /// number with a fraction or an exponent read as a `Double` and kept when `T` holds it
    /// exactly, as `JSONDecoder` reads them.
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int, codingPath: @autoclosure () -> [any CodingKey]) throws -> T {
        let value = values[index]
        guard value.kind == .number else { throw expected(T.self, at: index, codingPath: codingPath()) }
        let text: String
        if value.flags & Value.isNotInteger == 0 {
            if let integer = plainInteger(T.self, value) { return integer }
            // Digits alone that `T` does not hold: refused, never rounded through a `Double`.
            text = String(decoding: self.text(of: value), as: UTF8.self)
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath(), debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."
            ))
        }
        text = String(decoding: self.text(of: value), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath(), debugDescription: "Number \(text) is not representable in Swift."
            ))
        }
        guard let integer = T(exactly: double) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath(), debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."
            ))
        }
        // From 2^53 on, a `Double` no longer holds every integer: `JSONDecoder` then takes the
        // number's own digits, its fraction dropped, and so does this.
        if T.bitWidth > 53, integer.magnitude >= T.Magnitude(1) << 53 {
            guard let exact = truncatedInteger(T.self, value) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: codingPath(), debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."
                ))
            }
            return exact
        }
        return integer
    }

    /// The integer part of a number with a fraction or an exponent, from its digits (rounded
    /// toward zero), or `nil` if `T` does not hold it, or if its significant digits do not
    /// fit in a `UInt64` (which `JSONDecoder` refuses).
    private func truncatedInteger<T: FixedWidthInteger>(_ type: T.Type, _ value: Value) -> T? {
        let text = self.text(of: value)
        var digits: [UInt8] = []
        var pointAt: Int?
        var exponent = 0
        var index = text.startIndex
        let negative = text[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                pointAt = digits.count
            } else if byte | 0x20 == UInt8(ascii: "e") {
                // Checked when parsed: a sign at most, then digits. Larger exponents were
                // refused above, by the `Double`.
                guard let read = Int(String(decoding: text[(index + 1)...], as: UTF8.self)), abs(read) < 1_000 else { return nil }
                exponent = read
                break
            } else {
                digits.append(byte &- UInt8(ascii: "0"))
            }
            index += 1
        }
        var significand: UInt64 = 0
        for digit in digits.drop(while: { $0 == 0 }).reversed().drop(while: { $0 == 0 }).reversed() {
            let (scaled, overflow) = significand.multipliedReportingOverflow(by: 10)
            let (sum, overflowed) = scaled.addingReportingOverflow(UInt64(digit))
            guard !overflow, !overflowed else { return nil }
            significand = sum
        }
        let integerDigits = (pointAt ?? digits.count) + exponent
        guard integerDigits <= digits.count + 40 else { return nil }
        var result: T = 0
        for position in 0..<max(integerDigits, 0) {
            let digit = T(position < digits.count ? digits[position] : 0)
            let (scaled, overflow) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflowed) = negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            guard !overflow, !overflowed else { return nil }
            result = sum
        }
        return result
    }

    /// The integer of a number of digits alone, or `nil` if `T` does not hold it.
    @inline(__always)
    private func plainInteger<T: FixedWidthInteger>(_ type: T.Type, _ value: Value) -> T? {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = Int(value.start)
            let end = Int(value.end)
            let negative = value.flags & Value.isNegative != 0
            if negative { offset += 1 }
            var result: T = 0
            while offset < end {
                let digit = T(truncatingIfNeeded: buffer[offset] &- UInt8(ascii: "0"))
                let (scaled, overflow) = result.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                let (sum, overflowed) = negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
                guard !overflowed else { return nil }
                result = sum
                offset += 1
            }
            return result
        }
    }

    /// A floating-point number, refused (as `JSONDecoder` refuses it) when it is too large
    /// for `T`, or so small that it would read as zero when it is not.
    func decodeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type, at index: Int, codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> T {
        let value = values[index]
        guard value.kind == .number else { throw expected(T.self, at: index, codingPath: codingPath()) }
        let text = String(decoding: text(of: value), as: UTF8.self)
        guard let number = T(text), number.isFinite, number != 0 || !hasNonzeroDigit(value) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath(), debugDescription: "Number \(text) is not representable in Swift."
            ))
        }
        return number
    }

    /// Whether a number's digits before its exponent are not all zero.
    private func hasNonzeroDigit(_ value: Value) -> Bool {
        for byte in text(of: value) {
            if byte | 0x20 == UInt8(ascii: "e") { return false }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }
}

// MARK: - Containers

struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: JSONDocument
    let object: Int
    let path: JSONCodingPath?

    var codingPath: [any CodingKey] { JSONCodingPath.array(path) }

    var allKeys: [Key] {
        var keys: [Key] = []
        var seen: Set<String> = []
        forEachMember { keyIndex, _ in
            let name = document.string(at: keyIndex)
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    @inline(__always)
    private func forEachMember(_ body: (_ key: Int, _ value: Int) -> Void) {
        let values = document.values
        var member = object + 1
        for _ in 0..<Int(values[object].count) {
            body(member, member + 1)
            member = Int(values[member + 1].next)
        }
    }

    /// The index of the value under `key`, the first if the key appears more than once.
    @inline(__always)
    private func valueIndex(_ key: Key) -> Int? {
        document.member(key.stringValue, of: object)
    }

    private func required(_ key: Key) throws -> Int {
        guard let index = valueIndex(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
            ))
        }
        return index
    }

    private func link(_ key: Key) -> JSONCodingPath { JSONCodingPath(parent: path, key: key) }

    private func keyPath(_ key: Key) -> [any CodingKey] { JSONCodingPath.appending(key, to: path) }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        document.values[try required(key)].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = try required(key)
        return try document.decodeBool(at: index, codingPath: keyPath(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try document.decodeString(at: try required(key), codingPath: keyPath(key))
    }

    // One generic witness serves every integer requirement (Int, Int8, ... UInt64), and one
    // every floating-point requirement: the compiler matches each requirement with the most
    // specific candidate, so these win over the `Decodable` one below.

    func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try required(key)
        return try document.decodeInteger(T.self, at: index, codingPath: keyPath(key))
    }

    func decode<T: BinaryFloatingPoint & LosslessStringConvertible & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try document.decodeFloatingPoint(T.self, at: try required(key), codingPath: keyPath(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try required(key)
        return try JSONDocumentDecoder(document: document, index: index, path: link(key)).unwrap(T.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return try JSONDocumentDecoder(document: document, index: index, path: link(key)).unwrap(T.self)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return try document.decodeString(at: index, codingPath: keyPath(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return try document.decodeInteger(Int.self, at: index, codingPath: keyPath(key))
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return try document.decodeInteger(UInt64.self, at: index, codingPath: keyPath(key))
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return try document.decodeInteger(Int64.self, at: index, codingPath: keyPath(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = valueIndex(key), document.values[index].kind != .null else { return nil }
        return try document.decodeBool(at: index, codingPath: keyPath(key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try required(key)
        return try JSONDocumentDecoder(document: document, index: index, path: link(key)).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try required(key)
        return try JSONDocumentDecoder(document: document, index: index, path: link(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: JSONSuperKey())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key)
    }

    private func superDecoder(named key: some CodingKey) throws -> any Decoder {
        let found = document.member(key.stringValue, of: object)
        guard let found else {
            // `JSONDecoder` decodes an absent super value as `null`.
            return JSONDocumentDecoder(document: try JSONDocument(Array("null".utf8)), index: 0, path: JSONCodingPath(parent: path, key: key))
        }
        return JSONDocumentDecoder(document: document, index: found, path: JSONCodingPath(parent: path, key: key))
    }
}

/// The key of `superDecoder()`.
private struct JSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { return nil }
}

struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    let document: JSONDocument
    let path: JSONCodingPath?
    let count: Int?
    private(set) var currentIndex = 0
    /// The index of the current element's value.
    private var element: Int

    init(document: JSONDocument, array: Int, path: JSONCodingPath?) {
        self.document = document
        self.path = path
        self.count = Int(document.values[array].count)
        self.element = array + 1
    }

    var codingPath: [any CodingKey] { JSONCodingPath.array(path) }
    var isAtEnd: Bool { currentIndex >= count! }

    private func link() -> JSONCodingPath { JSONCodingPath(parent: path, key: JSONIndexKey(index: currentIndex)) }

    private func indexPath() -> [any CodingKey] { JSONCodingPath.appending(JSONIndexKey(index: currentIndex), to: path) }

    /// The current element's index, or the error `JSONDecoder` throws at the end.
    private func current(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: JSONCodingPath.appending(JSONIndexKey(index: currentIndex), to: path),
                debugDescription: "Unkeyed container is at end."
            ))
        }
        return element
    }

    private mutating func advance() {
        element = Int(document.values[element].next)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        let index = try current(Never.self)
        guard document.values[index].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value = try document.decodeBool(at: try current(Bool.self), codingPath: indexPath())
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let value = try document.decodeString(at: try current(String.self), codingPath: indexPath())
        advance()
        return value
    }

    // As in the keyed container, one generic witness per family of number types.

    mutating func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
        let value = try document.decodeInteger(T.self, at: try current(T.self), codingPath: indexPath())
        advance()
        return value
    }

    mutating func decode<T: BinaryFloatingPoint & LosslessStringConvertible & Decodable>(_ type: T.Type) throws -> T {
        let value = try document.decodeFloatingPoint(T.self, at: try current(T.self), codingPath: indexPath())
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try JSONDocumentDecoder(document: document, index: try current(T.self), path: link()).unwrap(T.self)
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try JSONDocumentDecoder(document: document, index: try current(KeyedDecodingContainer<NestedKey>.self), path: link())
            .container(keyedBy: NestedKey.self)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try JSONDocumentDecoder(document: document, index: try current((any UnkeyedDecodingContainer).self), path: link())
            .unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = JSONDocumentDecoder(document: document, index: try current((any Decoder).self), path: link())
        advance()
        return decoder
    }
}

struct JSONSingleValueContainer: SingleValueDecodingContainer {
    let decoder: JSONDocumentDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var document: JSONDocument { decoder.document }
    private var index: Int { decoder.index }

    func decodeNil() -> Bool { document.values[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try document.decodeBool(at: index, codingPath: decoder.codingPath) }
    func decode(_ type: String.Type) throws -> String { try document.decodeString(at: index, codingPath: decoder.codingPath) }
    // As in the keyed container, one generic witness per family of number types.
    func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
        try document.decodeInteger(T.self, at: index, codingPath: decoder.codingPath)
    }
    func decode<T: BinaryFloatingPoint & LosslessStringConvertible & Decodable>(_ type: T.Type) throws -> T {
        try document.decodeFloatingPoint(T.self, at: index, codingPath: decoder.codingPath)
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(T.self) }
}
