import Testing
import TreeArray

/// The module on its own, through its public API only (no `@testable`, no `Revertible`): what a
/// user of the `TreeArray` product sees.
@Suite("TreeArray: the module alone")
struct TreeArrayModuleTests {

    @Test("The catalog's landing-page example: a copy keeps its version while the original changes")
    func landingPageExample() {
        var rows = TreeArray(1 ... 1_000_000)
        let before = rows            // O(1): shares every chunk
        rows.insert(0, at: 500_000)  // O(log n): copies one path of chunks
        rows.remove(at: 0)
        #expect(before.count == 1_000_000 && rows.count == 1_000_000)
        #expect(before[499_999] == 500_000 && rows[499_999] == 0)
        #expect(rows[0] == 2 && rows.last == 1_000_000)
        #expect(Array(rows[499_998 ... 500_000]) == [500_000, 0, 500_001])
    }

    private struct Shape: Identifiable, Equatable {
        let id: Int
        var color: String
    }

    @Test("Lookup by id through the public API, on a copy and on the original after it changed")
    func lookupByID() {
        var shapes = TreeArray((0 ..< 5_000).map { Shape(id: $0, color: "blue") })
        shapes[id: 4_321]?.color = "red"
        let copy = shapes
        shapes.remove(at: 0)
        #expect(shapes.index(id: 4_321) == 4_320)
        #expect(copy.index(id: 4_321) == 4_321)
        #expect(shapes[id: 4_321]?.color == "red")
        #expect(shapes[id: 0] == nil && copy[id: 0] == Shape(id: 0, color: "blue"))
    }
}
