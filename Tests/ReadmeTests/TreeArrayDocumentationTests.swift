import Testing
import TreeArray

// The code examples of TreeArray's documentation (`TreeArray.docc`) and of the README's tour of
// it, line for line (`ReadmeSyncTests` checks it); `#expect` states what each example says.

struct Track: Identifiable, Equatable {
    let id: Int
    var title: String
}

@Suite("TreeArray documentation examples")
struct TreeArrayDocumentationTests {

    @Test("Copies share their chunks; inserts and removes anywhere")
    func sharing() {
        var rows = TreeArray(1 ... 1_000_000)
        let before = rows            // O(1): shares every chunk
        rows.insert(0, at: 500_000)  // O(log n): copies one path of chunks
        rows.remove(at: 0)
        #expect(rows.count == before.count)
        #expect(rows[499_999] == 0)
        #expect(before[499_999] == 500_000)
    }

    @Test("Elements found by id")
    func byID() {
        var tracks = TreeArray((0 ..< 100_000).map { Track(id: $0, title: "Track \($0)") })
        tracks[id: 42]?.title = "The answer" // found by id in O(log n)
        tracks[id: 7] = nil                  // nil removes
        #expect(tracks.count == 99_999)
        #expect(tracks[41] == Track(id: 42, title: "The answer"))
        #expect(tracks.index(id: 8) == 7)
    }
}
