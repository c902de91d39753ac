import Foundation

extension RangeChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        let location = try container.encodeKind(.range, at: keyPath)
        try container.encode(offset, forKey: .offset)
        try container.encodeValue(oldPart, forKey: .old, at: location)
        try container.encodeValue(newPart, forKey: .new, at: location)
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
        if let context {
            try container.encodeValue(context.before, forKey: .before, at: location)
            try container.encodeValue(context.after, forKey: .after, at: location)
            try container.encode(fingerprintText(context.fingerprint), forKey: .fingerprint)
        }
    }
}

/// What a run of bytes can be saved in.
private typealias DecodableRun = ByteSpliceable & Decodable

/// `type` as a ``DecodableRun`` type, or `nil`: the answer of `type as? any DecodableRun.Type`,
/// told by identity for the two types that conform (a cast to a composition of protocols cost
/// about a thousand instructions, every run read; one kept per type, in a `TypeMemo`, 740).
@inline(__always)
private func decodableRun(_ type: Any.Type) -> (any DecodableRun.Type)? {
    if type == String.self { return String.self }
    if type == Data.self { return Data.self }
    return type as? any DecodableRun.Type
}

extension DecodedNode {

    /// A run of bytes replaced in a `String` or `Data`. The run must lie inside both versions
    /// and leave the same number of bytes after it in each, so checking a value of the
    /// expected length never reads past its end.
    static func rangeChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let (path, valueType) = try container.decodeLocation(in: Root.self, holding: decodableRun) {
            "a run of bytes was saved at \($0.name.text), which now holds \($0.valueType), not a String or Data"
        }
        return try rangeChange(of: valueType, at: path, from: container)
    }

    private static func rangeChange<Value: ByteSpliceable & Decodable>(
        of type: Value.Type, at path: ResolvedKeyPath, from container: ChangeFields<NodeCodingKey>
    ) throws -> DecodedNode {
        let keyPath = try container.writable(path, to: Value.self) as WritableKeyPath<Root, Value>
        let offset = try container.decodeCount(forKey: .offset)
        let (oldPart, newPart) = try container.decodeOldAndNew(Value.self, at: path.name.text)
        let oldCount = try container.decodeCount(forKey: .oldCount)
        let newCount = try container.decodeCount(forKey: .newCount)
        guard offset <= oldCount - oldPart.byteCount, offset <= newCount - newPart.byteCount,
              oldCount - oldPart.byteCount == newCount - newPart.byteCount else {
            throw container.corrupted("the replaced run at \(path.name.text) does not fit the saved lengths", at: .offset)
        }
        let context = try container.decodeRunContext(Value.self, offset: offset, run: newPart.byteCount, count: newCount, at: path.name.text)
        let change = RangeChange(
            at: keyPath, offset: offset, oldPart: oldPart, newPart: newPart, oldCount: oldCount, newCount: newCount,
            context: context
        )
        return DecodedNode(change, at: path.name.components)
    }
}

extension ChangeFields where Key == NodeCodingKey {

    /// Reads the text kept around a run and its fingerprint, all three or none: an archive
    /// saved before they were kept has none, and its change then sees only changes of the
    /// length or of the run, as it did. The context must fit beside the run.
    func decodeRunContext<Part: ByteSpliceable & Decodable>(
        _ part: Part.Type, offset: Int, run: Int, count: Int, at location: String
    ) throws -> TextRunContext<Part>? {
        let hasBefore = contains(.before), hasAfter = contains(.after), hasFingerprint = contains(.fingerprint)
        guard hasBefore || hasAfter || hasFingerprint else { return nil }
        guard hasBefore && hasAfter && hasFingerprint else {
            throw corrupted("the text around the run at \(location) is saved in part", at: .before)
        }
        let before = try decodeValue(Part.self, forKey: .before, at: location)
        let after = try decodeValue(Part.self, forKey: .after, at: location)
        let text = try decodeString(forKey: .fingerprint)
        guard text.utf8.count == 16, let fingerprint = hexadecimalNumber(text) else {
            throw corrupted("the fingerprint of the text around the run at \(location) is not 16 hexadecimal digits", at: .fingerprint)
        }
        guard before.byteCount <= offset, after.byteCount <= count - offset - run else {
            throw corrupted("the text around the run at \(location) does not fit the saved lengths", at: .before)
        }
        return TextRunContext(before: before, after: after, fingerprint: fingerprint)
    }
}

/// A fingerprint as saved: 16 hexadecimal digits, a string rather than a number, since a
/// 64-bit number does not survive every JSON reader (many keep 53 bits, some stores refuse
/// more than 62).
func fingerprintText(_ fingerprint: UInt64) -> String {
    let digits = String(fingerprint, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

/// `UInt64(text, radix: 16)`, for the fingerprints and sums a history saves: up to 16
/// hexadecimal digits are read here, anything else (a sign, more digits, other characters)
/// by `UInt64`'s own parsing, which was most of the cost of reading one.
func hexadecimalNumber(_ text: String) -> UInt64? {
    var text = text
    let number: UInt64?? = text.withUTF8 { digits in
        guard (1...16).contains(digits.count) else { return nil }
        var number: UInt64 = 0
        for byte in digits {
            guard let digit = hexDigit(byte) else { return nil }
            number = number << 4 | UInt64(digit)
        }
        return .some(number)
    }
    return number ?? UInt64(text, radix: 16)
}
