import Foundation
import Testing
@testable import TodoKit

/// The hand-made parts of the JSON outputs, made by hand to keep `history --json` fast at
/// 10,000 steps (issue 27: 2.2 s), checked against what they replace.
@Suite("JSON output helpers")
struct OutputFormattingTests {

    @Test("Times are written as ISO8601DateFormatter writes them")
    func isoTimes() {
        let formatter = ISO8601DateFormatter()
        for seconds in [0, 1, 59.999, 1_795_637_245.652, 951_782_400, 4_102_444_799, -86_401.5, 1e10] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HistoryView.iso8601(date) == formatter.string(from: date), "\(seconds)")
        }
    }

    struct Sample: Encodable {
        var empty: [Int] = []
        var nested: [String: [String]] = ["a": [], "b": ["[\n]", "{ }"]]
        var object: [String: Int] = [:]
        var text = "[\t]"
    }

    @Test("Empty arrays and objects are written [] and {}; strings are left as they are")
    func emptyContainers() throws {
        let text = encodeJSON(Sample())
        #expect(text == """
            {
              "empty" : [],
              "nested" : {
                "a" : [],
                "b" : [
                  "[\\n]",
                  "{ }"
                ]
              },
              "object" : {},
              "text" : "[\\t]"
            }

            """)
    }
}
