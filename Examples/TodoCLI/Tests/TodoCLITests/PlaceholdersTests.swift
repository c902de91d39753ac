import Foundation
import Revertible
import Testing
@testable import TodoKit

/// The stand-ins for unread items: told apart from real items, never written.
@Suite("Stand-ins for the items a command does not read")
struct PlaceholdersTests {

    /// Two real items, three stand-ins, two real items; keys as `loadEnds` gives them.
    static func partial(_ placeholders: Placeholders) -> (TreeArray<TodoItem>, [Int64]) {
        let real = (1...4).map { TodoItem(id: UUID(), title: "real \($0)") }
        let items = Array(real[0...1]) + (0..<3).map { placeholders.item(at: $0) } + Array(real[2...3])
        return (TreeArray(items), [100, 200, 200, 200, 200, 600, 700])
    }

    @Test("A stand-in is recognised by its id, in memory and in JSON; a real item is not")
    func recognised() throws {
        let placeholders = Placeholders()
        let standIn = placeholders.item(at: 41)
        let real = TodoItem(id: UUID(), title: "")
        #expect(placeholders.isPlaceholder(standIn))
        #expect(!placeholders.isPlaceholder(real))
        #expect(!Placeholders().isPlaceholder(standIn), "each process has its own stand-ins")
        #expect(placeholders.appears(in: try JSONEncoder().encode([standIn])))
        #expect(!placeholders.appears(in: try JSONEncoder().encode([real])))
    }

    @Test("Writing next to real items only is allowed")
    func appendAllowed() {
        let placeholders = Placeholders()
        let (before, keys) = Self.partial(placeholders)
        var after = before
        after.append(TodoItem(id: UUID(), title: "new"))
        after[6].isDone = true
        let changes = ItemChanges(before: before, beforeKeys: keys, after: after)
        #expect(changes.inserted == [7])
        #expect(placeholders.allowWriting(changes, in: after))
    }

    @Test("Writing a stand-in, or a key between a stand-in's, is refused")
    func standInsRefused() {
        let placeholders = Placeholders()
        let (before, keys) = Self.partial(placeholders)
        var edited = before
        edited[3].title = "changed"
        #expect(!placeholders.allowWriting(ItemChanges(before: before, beforeKeys: keys, after: edited), in: edited))
        var removed = before
        removed.remove(at: 2)
        #expect(!placeholders.allowWriting(ItemChanges(before: before, beforeKeys: keys, after: removed), in: removed))
        var inserted = before
        inserted.insert(TodoItem(id: UUID(), title: "new"), at: 5)
        #expect(!placeholders.allowWriting(ItemChanges(before: before, beforeKeys: keys, after: inserted), in: inserted))
    }
}
