import Foundation

extension UUID {

    /// Parses the canonical form `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` (either case).
    ///
    /// `UUID(uuidString:)` goes through `sscanf` on Linux, which was the largest single cost
    /// of `todo list` on a 10,000-item file; this reads the 32 hex digits directly.
    init?(parsing text: String) {
        var text = text
        guard let uuid = text.withUTF8({ UUID(parsingUTF8: $0) }) else { return nil }
        self = uuid
    }

    /// Parses the canonical form from UTF-8 bytes, as SQLite hands a column over.
    init?(parsingUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let parsed: uuid_t? = { () -> uuid_t? in
            guard bytes.count == 36 else { return nil }
            var result = [UInt8](repeating: 0, count: 16)
            var byte = 0
            var index = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return nil }
                    index += 1
                    continue
                }
                guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
                result[byte] = high << 4 | low
                byte += 1
                index += 2
            }
            return (result[0], result[1], result[2], result[3], result[4], result[5], result[6], result[7],
                    result[8], result[9], result[10], result[11], result[12], result[13], result[14], result[15])
        }()
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }
}

/// The value of one hex digit, either case.
private func hexValue(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
}
