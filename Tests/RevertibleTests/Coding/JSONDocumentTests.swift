import Foundation
import Testing
import TestSupport
@testable import Revertible

/// The library's own JSON reader (`JSONDocument`, `JSONDocumentDecoder`), behind
/// `HistoryArchive(json:)`: it must read what `JSONEncoder` writes exactly as `JSONDecoder`
/// reads it, and refuse what `JSONDecoder` refuses, with an error that says where.
@Suite("JSON reader")
struct JSONDocumentTests {

    /// Decodes `bytes` both ways; both must succeed with equal values, or both fail.
    @discardableResult
    private func expectSameReading<T: Decodable & Equatable>(
        _ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<T, any Error> {
        let foundation = Result { try JSONDecoder().decode(T.self, from: Data(bytes)) }
        let own = Result { try JSONDocumentDecoding.decode(T.self, from: bytes) }
        let text = String(decoding: bytes, as: UTF8.self)
        switch (foundation, own) {
        case let (.success(expected), .success(read)):
            #expect(expected == read, "\(text): JSONDecoder read \(expected), the reader \(read)", sourceLocation: sourceLocation)
        case (.failure, .failure):
            break
        case let (.success(expected), .failure(error)):
            Issue.record("\(text): JSONDecoder read \(expected), the reader refused it: \(error)", sourceLocation: sourceLocation)
        case let (.failure(error), .success(read)):
            Issue.record("\(text): JSONDecoder refused it (\(error)), the reader read \(read)", sourceLocation: sourceLocation)
        }
        return own
    }

    @discardableResult
    private func expectSameReading<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<T, any Error> {
        expectSameReading(type, Array(text.utf8), sourceLocation: sourceLocation)
    }

    /// Encodes `value` with `JSONEncoder` and expects both readers to read it back equal.
    private func expectRoundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for encoder in [JSONEncoder(), { let e = JSONEncoder(); e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]; return e }()] {
            let bytes = Array(try encoder.encode(value))
            let read = expectSameReading(T.self, bytes, sourceLocation: sourceLocation)
            #expect((try? read.get()) == value, "\(value) read back as \(read)", sourceLocation: sourceLocation)
        }
    }

    @Test("Malformed JSON is refused, by both readers, with the byte where reading stopped")
    func malformed() throws {
        let texts = [
            "", " ", "{", "}", "[", "]", "[1", "[1 2]", "[,1]", "[1,,2]", "[,]", "{,}", #"{"a":1,,"b":2}"#,
            #"{"a" 1}"#, #"{"a":}"#, #"{1:2}"#, #"{"a":1"#, "01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "0x10",
            "tru", "nul", "fals", "True", "NaN", "Infinity", "-Infinity", "1 2", "{} {}", "[1]]", #""abc"#, #""\x""#,
            #""\u12""#, #""\u12G4""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, "\"a\u{01}b\"",
            "\"tab\there\"", "'a'", "[1,]]", "\u{0C}1", "//1", "/*a*/1",
        ]
        for text in texts {
            let read = expectSameReading([Int].self, text)
            if case let .failure(error) = read {
                guard case let DecodingError.dataCorrupted(context) = error else {
                    Issue.record("\(text): \(error)")
                    continue
                }
                if let syntax = context.underlyingError as? JSONSyntaxError {
                    #expect(syntax.offset <= text.utf8.count)
                    #expect(context.debugDescription.contains("not valid JSON"))
                    #expect(context.debugDescription.contains("at byte \(syntax.offset)"))
                }
            }
        }
        // Bytes that are not UTF-8, inside a string and out.
        for bytes: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
                               [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0x80, 0x22], [0xFF], [0x22, 0xF0, 0x9F, 0x98, 0x22]] {
            let read = expectSameReading(String.self, bytes)
            #expect(throws: (any Error).self) { try read.get() }
        }
    }

    @Test("Nesting: as deep as JSONDecoder reads, and no deeper")
    func nesting() throws {
        for depth in [1, 2, 100, 510, 511, 512, 513, 5_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            // Neither reads an array of arrays as an `Int`: only whether parsing passes counts.
            let own = Result { try JSONDocument(Array(text.utf8)) }
            let foundation = Result { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
            if depth < JSONDocument.maximumDepth {
                #expect((try? own.get()) != nil, "depth \(depth)")
            } else {
                #expect((try? own.get()) == nil, "depth \(depth)")
            }
            _ = foundation
        }
    }

    @Test("The leniencies JSONDecoder has: a byte-order mark, one trailing comma, white space")
    func leniencies() {
        expectSameReading(Int.self, [0xEF, 0xBB, 0xBF] + Array("1".utf8))
        expectSameReading([Int].self, "[1,]")
        expectSameReading([Int].self, "[1 , ]")
        expectSameReading([String: Int].self, #"{"a":1,}"#)
        expectSameReading([String: Int].self, " \t\r\n{ \"a\" : 1 , \"b\" :2 }\n ")
        expectSameReading(Int.self, " 1 ")
    }

    /// Keys read by name from a keyed container, several alike in their first bytes.
    private struct AlikeKeys: Decodable, Equatable {
        let a: Int?
        let abcd: Int?
        let abcde: Int?
        let abcdf: Int?
        let abcdefghi: Int?
        let é: Int?
    }

    @Test("A key is found as JSONDecoder finds it: its first value when repeated, told from keys alike in their first bytes")
    func keys() throws {
        let texts = [
            #"{"a":1,"a":2}"#, #"{"abcde":1,"abcdf":2,"abcd":3,"abcde":4}"#, #"{"abcdefghj":1,"abcdefghi":2,"abcdefghi":3}"#,
            #"{"abc":1,"abcdx":2,"ab":3,"abcd":4}"#, #"{"\u0061":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"abcd\u0065":5,"abcde":6}"#,
            #"{"é":1,"e\u0301":2}"#, "{\"e\u{301}\":1,\"é\":2}", #"{"":1,"a":2}"#,
        ]
        for text in texts {
            let read = expectSameReading(AlikeKeys.self, text)
            #expect((try? read.get()) != nil, "\(text) was refused")
        }
        let document = try JSONDocument(Array(#"{"abcde":1,"abcdf":2,"abcd":3,"abcdf":4,"x":5}"#.utf8))
        let found = ["abcdf", "abcd", "abcde", "x", "abcdg", "abc", "abcdfg", ""].map { key in
            document.member(key, of: 0).map { String(decoding: document.text(of: document.values[$0]), as: UTF8.self) }
        }
        #expect(found == ["2", "3", "1", "5", nil, nil, nil, nil])
    }

    @Test("Keys looked up in any order, present or absent, are found as String's == finds the first")
    func keysInAnyOrder() throws {
        let texts = [
            #"{"k":"path","p":"\\T.a","c":{"k":"value","o":1,"n":2},"at":1,"oc":2,"nc":3}"#,
            #"{"a":1,"b":2,"a":3}"#, #"{"ab":1,"ba":2,"abc":{"ab":3,"ab":4}}"#, #"{"\u006b":1,"k":2}"#,
            #"{"k":1,"\u006b":2}"#, "{\"K\":1,\"k\":2}", "{\"\u{212A}\":1,\"K\":2}", "{}", #"{"":1,"x":2}"#,
            #"{"é":1,"e\u0301":2,"e":3}"#, "{\"e\u{301}\":1,\"\\u00e9\":2}", #"[{"x":1,"y":2},{"y":3,"x":4},{}]"#,
            // More keys than signatures: some share one.
            "{" + (0..<70).map { #""x\#($0)":\#($0)"# }.joined(separator: ",") + "}",
        ]
        let keys = ["k", "p", "c", "o", "n", "at", "oc", "nc", "a", "b", "ab", "ba", "abc", "x", "y", "", "s", "none",
                    "\u{212A}", "K", "é", "e\u{301}", "e", "x0", "x7", "x69", "x70"]
        var generator = SeededGenerator(seed: 37)
        for text in texts {
            let document = try JSONDocument(Array(text.utf8))
            let objects = document.values.indices.filter { document.values[$0].kind == .object }
            // The first member whose key is `==`, compared as strings.
            func first(_ key: String, of object: Int) -> Int? {
                var member = object + 1
                for _ in 0..<Int(document.values[object].count) {
                    if document.string(at: member) == key { return member + 1 }
                    member = Int(document.values[member + 1].next)
                }
                return nil
            }
            for _ in 0..<300 {
                let object = objects.randomElement(using: &generator)!
                let key = keys.randomElement(using: &generator)!
                #expect(document.member(key, of: object) == first(key, of: object), "\(key) in \(text)")
            }
        }
    }

    @Test("A change's kind is read from its name's bytes as NodeKind(rawValue:) reads it")
    func kindNames() throws {
        let names = NodeKind.allCases.map(\.rawValue) + ["", "Tree", "tre", "trees", "treearray", "valuevalue", "é", "\u{0}"]
        for name in names {
            let document = try JSONDocument(Array(try JSONEncoder().encode(name)))
            #expect(document.nodeKind(at: 0) == NodeKind(rawValue: name), "\(name)")
        }
        // Escaped, or not a string: left to the reading that names the problem.
        #expect(try JSONDocument(Array(#""tr\u0065e""#.utf8)).nodeKind(at: 0) == nil)
        #expect(try JSONDocument(Array("12".utf8)).nodeKind(at: 0) == nil)
    }

    @Test("A saved sum or fingerprint is read as UInt64(_:radix: 16) reads it")
    func hexadecimalNumbers() {
        var generator = SeededGenerator(seed: 37)
        var texts = ["", "0", "f", "F", "-0", "+1", "-1", "ffffffffffffffff", "FFFFFFFFFFFFFFFF", "10000000000000000",
                     "0000000000000000001", "0x1", "g", " 1", "1 ", "٣", "ａ", "12345678abcdef0"]
        for _ in 0..<200 {
            texts.append(String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 16, uppercase: Bool.random(using: &generator)))
        }
        for text in texts {
            #expect(hexadecimalNumber(text) == UInt64(text, radix: 16), "\(text)")
        }
    }

    @Test("A string is read the same with any character that needs a check at any place among plain ones")
    func charactersAtEveryPlace() throws {
        for special in ["\"", "\\", "\u{1}", "\u{1F}", "\u{7F}", "é", "😀", "\u{FFFF}"] {
            for length in 0..<20 {
                for place in 0...length {
                    let plain = String(repeating: "a", count: length)
                    let sample = String(plain.prefix(place)) + special + String(plain.dropFirst(place))
                    try expectRoundTrip(sample)
                }
            }
        }
        // An unescaped control character, a lone continuation byte, or no closing quote: refused
        // wherever it falls.
        for length in 0..<20 {
            for place in 0...length {
                for bad: [UInt8] in [[0x01], [0x80], [0xC3]] {
                    var bytes = Array("\"".utf8) + Array(repeating: UInt8(ascii: "b"), count: length) + Array("\"".utf8)
                    bytes.insert(contentsOf: bad, at: 1 + place)
                    expectSameReading(String.self, bytes)
                    #expect(throws: (any Error).self) { try JSONDocument(bytes) }
                }
                let open = Array("\"".utf8) + Array(repeating: UInt8(ascii: "c"), count: length)
                #expect(throws: (any Error).self) { try JSONDocument(open) }
            }
        }
    }

    @Test("Strings, escapes and Unicode read as JSONDecoder reads them")
    func strings() throws {
        let samples = [
            "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
            "é (precomposed) e\u{301} (combining)", "日本語", "emoji 😀 👩‍👩‍👧 🇫🇷", "\u{FFFF}\u{10FFFF}\u{E000}",
            "line\u{2028}separator\u{2029}", String(repeating: "long ", count: 2_000),
        ]
        for sample in samples {
            try expectRoundTrip(sample)
            try expectRoundTrip([sample: sample])
        }
        for text in [#""\u00e9""#, #""\u00E9\u0301""#, #""\ud83d\ude00""#, #""\uD83D\uDE00""#, #""\/\b\f\n\r\t\"\\""#,
                     #""\u0000""#, #""a\u0022b""#, "\"\u{7F}\"", #""\uFFFF""#, #""\udbff\udfff""#] {
            expectSameReading(String.self, text)
        }
    }

    @Test("Numbers read as JSONDecoder reads them, in every type")
    func numbers() throws {
        try expectRoundTrip([Int.min, -1, 0, 1, Int.max])
        try expectRoundTrip([Int64.min, Int64.max])
        try expectRoundTrip([UInt64.max, 0])
        try expectRoundTrip([Int8.min, Int8.max])
        try expectRoundTrip([UInt8.max])
        try expectRoundTrip([Int16.min, Int16.max])
        try expectRoundTrip([UInt32.max])
        try expectRoundTrip([0.1, -0.0, 1e-300, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 123456.789, -2.5e-10, 1 / 3])
        try expectRoundTrip([Float(0.1), -Float.greatestFiniteMagnitude, Float.leastNonzeroMagnitude, 3.5])
        for text in ["1.0", "1e2", "1E2", "-0", "-0.0", "1.5", "1e-400", "0e5", "100000000000000000000", "9223372036854775807",
                     "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
                     "18446744073709551616", "1e19", "true", #""1""#, "null",
                     // Past 2^53, where a `Double` holds only some integers: read from the digits.
                     "179594895143452703.2", "-179594895143452703.7", "9007199254740993.0", "123456789012345678e-1",
                     "0.9999999999999999999", "1.8e18", "9223372036854775807.0", "10000000000000000000.0",
                     "9223372036854774784.5", "90071992547409930.00000000000000001", "90071992547409930000e-3"] {
            expectSameReading(Int.self, text)
            expectSameReading(UInt64.self, text)
            expectSameReading(Int8.self, text)
            expectSameReading(UInt.self, text)
        }
        for text in ["0", "-0", "1e400", "-1e400", "1e-400", "2e-324", "4.9e-324", "0.0e-999", "1e308", "123.456e-2", "1E+2"] {
            expectSameReading(Double.self, text)
        }
        for text in ["1e39", "3.4028236e38", "3.4028234e38", "1e-46", "1.5e-45", "0.1"] {
            expectSameReading(Float.self, text)
        }
        expectSameReading(Decimal.self, "1.25")
        expectSameReading(Decimal.self, "-12345678901234567890.5")
        expectSameReading(Decimal.self, #""1""#)
    }

    private struct Record: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double?
        var flag: Bool
        var data: Data
        var date: Date
        var url: URL
        var nested: [[String: [Int?]]]
        var byNumber: [Int: String]
        var set: Set<UInt8>
        var optional: Int?
    }

    @Test("Foundation's types and containers read as JSONDecoder reads them")
    func records() throws {
        let record = Record(
            name: "n", count: -3, ratio: nil, flag: true, data: Data([0, 1, 2, 255, 128]), date: Date(timeIntervalSinceReferenceDate: 12.5),
            url: URL(string: "https://example.com/a%20b?c=d")!, nested: [["a": [1, nil, 3]], [:]], byNumber: [1: "one", -2: "minus two"],
            set: [1, 2, 3], optional: nil
        )
        try expectRoundTrip(record)
        try expectRoundTrip([record, record])
        expectSameReading(Data.self, #""AQID""#)
        expectSameReading(Data.self, #""AQI""#)
        expectSameReading(URL.self, #""a b""#)
        // Not `{"1":5,"01":6}` as `[Int: Int]`: JSONDecoder keeps either, by its hash order.
        expectSameReading([String: Int].self, #"{"a":1,"a":2}"#)
        expectSameReading(Dictionary<String, Int>.self, #"{"\u0061":1}"#)
    }

    @Test("UUIDs read as JSONDecoder reads them: the canonical form directly, any other through UUID's decoding")
    func uuids() throws {
        try expectRoundTrip(UUID())
        try expectRoundTrip([UUID(), UUID()])
        for text in [
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621E1F8-c36c-495A-93fc-0C247A3E6E5F",
            "E621E1F8C36C495A93FC0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF",
            "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
            "-621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E-F", " E621E1F8-C36C-495A-93FC-0C247A3E6E5",
            "", "E621E1F8",
        ] {
            expectSameReading(UUID.self, "\"\(text)\"")
        }
        expectSameReading(UUID.self, #""\u0045621E1F8-C36C-495A-93FC-0C247A3E6E5F""#)
        expectSameReading(UUID.self, "5")
        expectSameReading(UUID.self, "null")
    }

    private struct Keyed: Decodable, Equatable {
        var a: Int
        var b: String?
    }

    @Test("Wrong and missing values are refused with JSONDecoder's kind of error, at its coding path")
    func errors() throws {
        let cases = [
            #"{"b":"x"}"#, #"{"a":null}"#, #"{"a":"1"}"#, #"{"a":1,"b":2}"#, #"[1]"#, "null", "1", #"{"a":1.5}"#,
            #"{"a":1e30}"#, #"{"a":1,"b":null}"#, #"{"\u0061":4}"#, #"{"a":4,"a":5}"#,
        ]
        for text in cases {
            let foundation = Result { try JSONDecoder().decode(Keyed.self, from: Data(text.utf8)) }
            let own = Result { try JSONDocumentDecoding.decode(Keyed.self, from: Array(text.utf8)) }
            switch (foundation, own) {
            case let (.success(expected), .success(read)):
                #expect(expected == read, "\(text)")
            case let (.failure(expected as DecodingError), .failure(read as DecodingError)):
                #expect(kind(expected) == kind(read), "\(text): \(expected) / \(read)")
                // JSONDecoder says a number that does not fit is "not valid JSON", at no path;
                // the reader says which number, and where.
                if !"\(expected)".contains("not valid JSON") {
                    #expect(path(expected) == path(read), "\(text): \(expected) / \(read)")
                }
            default:
                Issue.record("\(text): JSONDecoder \(foundation), the reader \(own)")
            }
        }
        // Inside arrays: the path names the element, as "Index n".
        let text = #"[[1,2],[3,"x"]]"#
        #expect(throws: DecodingError.self) { try JSONDocumentDecoding.decode([[Int]].self, from: Array(text.utf8)) }
        do {
            _ = try JSONDocumentDecoding.decode([[Int]].self, from: Array(text.utf8))
        } catch let error as DecodingError {
            #expect(path(error) == ["Index 1", "Index 1"])
            #expect(kind(error) == "typeMismatch")
        }
    }

    private func kind(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch: "typeMismatch"
        case .valueNotFound: "valueNotFound"
        case .keyNotFound: "keyNotFound"
        case .dataCorrupted: "dataCorrupted"
        @unknown default: "unknown"
        }
    }

    private func path(_ error: DecodingError) -> [String] {
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context), let .dataCorrupted(context):
            context.codingPath.map(\.stringValue)
        @unknown default: []
        }
    }

    /// A random JSON value of the shapes `JSONEncoder` writes.
    private indirect enum Random: Codable, Equatable {
        case string(String), integer(Int), double(Double), bool(Bool), list([Random]), object([String: Random]), none
    }

    private func random(depth: Int, _ generator: inout SeededGenerator) -> Random {
        let alphabet: [Character] = ["a", "\"", "\\", "/", "\u{0}", "\n", "é", "😀", "e\u{301}", " ", "\u{1F}", "日"]
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
        case 0: return .string(String((0..<Int.random(in: 0..<8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        case 1: return .integer(Int.random(in: Int.min...Int.max, using: &generator) >> Int.random(in: 0..<64, using: &generator))
        case 2: return .double(Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator)) * (Bool.random(using: &generator) ? 1 : -1))
        case 3: return .bool(Bool.random(using: &generator))
        case 4: return .none
        case 5: return .list((0..<Int.random(in: 0..<4, using: &generator)).map { _ in random(depth: depth + 1, &generator) })
        default:
            var object: [String: Random] = [:]
            for _ in 0..<Int.random(in: 0..<4, using: &generator) {
                object[String((0..<3).map { _ in alphabet.randomElement(using: &generator)! })] = random(depth: depth + 1, &generator)
            }
            return .object(object)
        }
    }

    @Test("Random values, written by JSONEncoder, read back as JSONDecoder reads them")
    func randomValues() throws {
        for seed in RandomizedTesting.seeds(defaultIterations: 300) {
            var generator = SeededGenerator(seed: seed)
            try expectRoundTrip(random(depth: 0, &generator))
        }
    }
}
