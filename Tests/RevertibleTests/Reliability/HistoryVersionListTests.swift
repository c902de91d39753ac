import Testing
@testable import Revertible

/// The versions each version leads to: inline while there is one, an array once a branch
/// is made, in the order redo prefers.
@Suite("History: the versions a version leads to")
struct HistoryVersionListTests {

    @Test("A straight history of steps keeps no array per step")
    func straightHistoryIsInline() {
        var history = History<String, NoAnnotation>("")
        for step in 0..<100 {
            history.record("v\(step)", annotation: NoAnnotation(), policy: HistoryPolicy())
        }
        #expect(history.scopes[0].children.count == 100)
        let inline = history.scopes[0].children.values.allSatisfy { $0.isInline }
        #expect(inline)
    }

    @Test("Appending, moving to the end and removing keep the order")
    func listOperations() {
        let (a, b, c) = (HistoryVersion(1), HistoryVersion(2), HistoryVersion(3))
        var list: HistoryVersionList = []
        #expect(list.isEmpty && list.isInline)
        list.append(a)
        #expect(Array(list) == [a] && list.isInline)
        list.append(b)
        list.append(c)
        #expect(Array(list) == [a, b, c] && !list.isInline)
        list.remove(at: 0)
        list.append(a)
        #expect(Array(list) == [b, c, a] && list.last == a)
        list.removeAll { $0 != c }
        #expect(Array(list) == [c] && list.isInline)
        #expect(list == HistoryVersionList([c]))
    }
}
