import Foundation
import Testing
@testable import Revertible

/// Whatever bytes are read, decoding gives a reversion or an error, and a reversion read from
/// inconsistent content is refused before it writes anything: never a trap.
@Suite("Saved reversions from hostile input")
struct ReversionCodingHostileInputTests {

    private let doc = Doc(
        title: "héllo", count: 1, tags: ["a"], counts: ["one": 1], scores: [1, 2, 3],
        items: [Item(id: 1, title: "a", done: false, children: []), Item(id: 2, title: "b", done: false, children: [])],
        rows: TreeArray([Row(id: 1, title: "r1", done: false), Row(id: 2, title: "r2", done: false)])
    )

    private func decodingError(_ json: String) -> String? {
        errorDescription { _ = try decoded(Data(json.utf8), as: Doc.self) }
    }

    @Test("Truncated JSON is an error at every length")
    func truncated() throws {
        var edited = doc
        edited.items.swapAt(0, 1)
        edited.title += "!"
        let data = try encoded(try #require(edited.reversion(to: doc)))
        for length in 0..<data.count {
            #expect(throws: DecodingError.self, "length \(length)") { _ = try decoded(data.prefix(length), as: Doc.self) }
        }
    }

    @Test("Unknown kinds, missing fields and newer formats are errors")
    func wrongShape() {
        #expect(decodingError(#"{"v":1,"c":{"k":"bogus","p":"\\Doc.count","o":1,"n":2}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"value","p":"\\Doc.count","o":1}}"#) != nil)
        #expect(decodingError(#"{"v":2,"c":{"k":"value","p":"\\Doc.count","o":1,"n":2}}"#)?.contains("format 2") == true)
        #expect(decodingError(#"{"v":1,"c":{"k":"value","p":"Doc.count","o":1,"n":2}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"value","p":"\\Doc.count.self","o":1,"n":2}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"value","p":"\\Doc.<computed 0x1234 (Int)>","o":1,"n":2}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"all","c":[]}}"#) != nil)
        #expect(decodingError("[]") != nil)
    }

    @Test("A kind that does not fit its location names the location")
    func kindAtWrongLocation() throws {
        let range = try #require(decodingError(#"{"v":1,"c":{"k":"range","p":"\\Doc.count","at":0,"o":"","n":"x","oc":0,"nc":1}}"#))
        #expect(range.contains(#"\Doc.count"#), "\(range)")
        let set = try #require(decodingError(#"{"v":1,"c":{"k":"set","p":"\\Doc.title","a":[],"r":[],"oc":0,"nc":0}}"#))
        #expect(set.contains(#"\Doc.title"#), "\(set)")
        let ids = try #require(decodingError(#"{"v":1,"c":{"k":"ids","p":"\\Doc.scores","e":[],"oc":0,"nc":0}}"#))
        #expect(ids.contains(#"\Doc.scores"#), "\(ids)")
        #expect(decodingError(#"{"v":1,"c":{"k":"tree","e":[],"oc":0,"nc":0}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"some","c":{"k":"value","p":"\\Doc.count","o":1,"n":2}}}"#) != nil)
        let value = try #require(decodingError(#"{"v":1,"c":{"k":"value","p":"\\Doc.count","o":"one","n":2}}"#))
        #expect(value.contains(#"\Doc.count"#), "\(value)")
        // A library type's internals are never a location.
        #expect(decodingError(#"{"v":1,"c":{"k":"value","p":"\\Doc.title._guts","o":1,"n":2}}"#)?.contains("library type") == true)
    }

    @Test("Indices out of range, out of order, repeated, or counts that disagree are errors")
    func inconsistentPositions() {
        let edit = #"{"o":0,"n":0,"id":1,"c":{"k":"value","p":"\\Item.done","o":false,"n":true}}"#
        // An edit past the end.
        #expect(decodingError(#"{"v":1,"c":{"k":"ids","p":"\\Doc.items","e":[{"o":5,"n":5,"id":1,"c":{"k":"value","p":"\\Item.done","o":false,"n":true}}],"oc":2,"nc":2}}"#) != nil)
        // The same element edited twice.
        #expect(decodingError(#"{"v":1,"c":{"k":"ids","p":"\\Doc.items","e":[\#(edit),\#(edit)],"oc":2,"nc":2}}"#) != nil)
        // Counts that disagree with the positions.
        #expect(decodingError(#"{"v":1,"c":{"k":"ids","p":"\\Doc.items","e":[],"s":{"o":[],"n":[{"i":0,"e":{"id":9,"title":"","done":false,"children":[]}}]},"oc":2,"nc":2}}"#) != nil)
        // Positions out of order.
        #expect(decodingError(#"{"v":1,"c":{"k":"diff","p":"\\Doc.scores","r":[{"i":2,"e":3},{"i":1,"e":2}],"a":[],"oc":3,"nc":1}}"#) != nil)
        // A move without its other end.
        #expect(decodingError(#"{"v":1,"c":{"k":"tree","e":[],"s":{"o":[{"i":0,"m":1,"id":1}],"n":[{"i":1,"e":{"id":1,"title":"","done":false}}]},"oc":2,"nc":2}}"#.replacingOccurrences(of: #""k":"tree""#, with: #""k":"path","p":"\\Doc.rows","c":{"k":"tree""#) + "}") != nil)
        // A run of bytes past the end, and one that leaves different tails.
        #expect(decodingError(#"{"v":1,"c":{"k":"range","p":"\\Doc.title","at":9,"o":"","n":"x","oc":6,"nc":7}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"range","p":"\\Doc.title","at":0,"o":"a","n":"x","oc":6,"nc":7}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"range","p":"\\Doc.title","at":-1,"o":"","n":"","oc":6,"nc":6}}"#) != nil)
        // A set whose members repeat; a dictionary whose key repeats.
        #expect(decodingError(#"{"v":1,"c":{"k":"set","p":"\\Doc.tags","a":["b","b"],"r":[],"oc":1,"nc":3}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"dict","p":"\\Doc.counts","c":[{"key":"one","r":1},{"key":"one","u":{"k":"value","p":"\\Int.self","o":1,"n":2}}],"oc":1,"nc":0}}"#) != nil)
        // Changes whose locations overlap.
        #expect(decodingError(#"{"v":1,"c":{"k":"all","c":[{"k":"value","p":"\\Doc.count","o":1,"n":2},{"k":"value","p":"\\Doc.count","o":2,"n":3}]}}"#) != nil)
        #expect(decodingError(#"{"v":1,"c":{"k":"all","c":[{"k":"value","p":"\\Doc.note","o":{"title":"","count":0},"n":{"title":"","count":1}},{"k":"value","p":"\\Doc.note.count","o":0,"n":1}]}}"#) != nil)
    }

    @Test("A run of bytes that would cut a scalar is refused on apply, not trapped on")
    func cutInsideScalar() throws {
        // "héllo": é is two bytes, 1 and 2. Inserting at byte 2 would split it.
        let reversion = try decoded(Data(#"{"v":1,"c":{"k":"range","p":"\\Doc.title","at":2,"o":"x","n":"","oc":7,"nc":6}}"#.utf8), as: Doc.self)
        var value = doc
        #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&value) }
        #expect(value == doc)
    }

    /// Valid saved reversions with their numbers, strings and lists randomly changed, keys
    /// dropped and list elements repeated or swapped: each decodes to an error, or to a
    /// reversion that applies or refuses, on the versions it was made between and on others.
    @Test("Randomly damaged reversions never trap")
    func damaged() throws {
        var decodedCount = 0
        for seed in UInt64(1)...80 {
            var editor = DocEditor(seed: seed)
            var random = SeededGenerator(seed: seed &* 7_919)
            let a = editor.edit(editor.edit(Doc()))
            let b = editor.edit(a)
            guard let reversion = b.reversion(to: a) else { continue }
            let json = try JSONSerialization.jsonObject(with: try encoded(reversion))
            let candidates = [a, b, editor.edit(b), Doc()]
            for _ in 0..<40 {
                var damaged = json
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    damaged = damage(damaged, using: &random)
                }
                guard JSONSerialization.isValidJSONObject(damaged), let data = try? JSONSerialization.data(withJSONObject: damaged),
                      let copy = try? decoded(data, as: Doc.self) else { continue }
                decodedCount += 1
                for candidate in candidates {
                    for direction in [copy, copy.inverted] {
                        var value = candidate
                        if (try? direction.revert(&value)) == nil {
                            #expect(value == candidate, "changed by a refused revert, seed \(seed)")
                        }
                        _ = direction.changedKeyPaths
                    }
                }
            }
        }
        // Many damaged copies still decode (a changed string or count is often consistent),
        // so applying them is exercised, not only the decoder's refusals.
        #expect(decodedCount > 100, "\(decodedCount) decoded")
    }

    /// One random change somewhere in a JSON value.
    private func damage(_ value: Any, using random: inout SeededGenerator) -> Any {
        switch value {
        case var object as [String: Any] where !object.isEmpty:
            let key = object.keys.sorted()[Int.random(in: 0..<object.count, using: &random)]
            switch Int.random(in: 0..<10, using: &random) {
            case 0: object[key] = nil
            case 1: object[key] = Int.random(in: -2...12, using: &random)
            default: object[key] = damage(object[key]!, using: &random)
            }
            return object
        case var array as [Any] where !array.isEmpty:
            let index = Int.random(in: 0..<array.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0: array.remove(at: index)
            case 1: array.append(array[index])
            case 2: array.swapAt(index, Int.random(in: 0..<array.count, using: &random))
            default: array[index] = damage(array[index], using: &random)
            }
            return array
        case let number as NSNumber:
            return [0, 1, -1, number.intValue &+ 1, number.intValue &- 1, 1 << 40, Int.max][Int.random(in: 0..<7, using: &random)]
        case let string as String:
            return random.chance(0.5) ? "" : string + "é"
        default:
            return Int.random(in: 0...3, using: &random)
        }
    }
}
