import Foundation
import Testing
@testable import Revertible

/// A reversion is saved as its tree of changes and reads back as one that behaves exactly
/// like it: both directions, the same refusals, the same key paths.
@Suite("Saving reversions")
struct ReversionCodingTests {

    private let base = Doc(
        title: "Groceries", count: 1, note: Memo(title: "note", count: 2), maybe: Memo(title: "maybe", count: 3),
        tags: ["a", "b"], table: ["x": Memo(title: "x", count: 0)], counts: ["one": 1], scores: [1, 2, 3],
        blob: Data([1, 2, 3]), items: [Item(id: 1, title: "milk", done: false, children: [])],
        rows: TreeArray([Row(id: 1, title: "r1", done: false), Row(id: 2, title: "r2", done: true)])
    )

    /// Checks a change made by `edit`, and that the saved copy refuses `base` edited by `spoil`.
    private func check(_ edit: (inout Doc) -> Void, spoil: ((inout Doc) -> Void)? = nil, kind: String) throws {
        var edited = base
        edit(&edited)
        let reversion = try #require(edited.reversion(to: base))
        let json = String(decoding: try encoded(reversion), as: UTF8.self)
        #expect(json.contains("\"k\":\"\(kind)\""), "\(json)")
        var wrong = [Doc]()
        if let spoil {
            var spoiled = edited
            spoil(&spoiled)
            wrong.append(spoiled)
        }
        try expectSavedExactly(reversion, from: base, to: edited, wrong: wrong)
    }

    @Test("A leaf is saved as its old and new value")
    func value() throws {
        try check({ $0.count = 7 }, spoil: { $0.count = 8 }, kind: "value")
    }

    @Test("A string or data edit is saved as the replaced run of bytes")
    func range() throws {
        try check({ $0.title = "Grocéries!" }, spoil: { $0.title = "Grocéries?" }, kind: "range")
        try check({ $0.blob.append(9) }, spoil: { $0.blob.append(8) }, kind: "range")
    }

    @Test("A change inside a nested value is saved under its property")
    func path() throws {
        try check({ $0.note.count = 5 }, spoil: { $0.note.count = 6 }, kind: "path")
    }

    @Test("A change inside an optional that stays non-nil is saved inside it")
    func optional() throws {
        try check({ $0.maybe?.title += "!" }, spoil: { $0.maybe = nil }, kind: "some")
        try check({ $0.maybe = nil }, spoil: { $0.maybe?.count = 9 }, kind: "value")
    }

    @Test("A set is saved as the members added and removed")
    func set() throws {
        try check({ $0.tags.remove("a"); $0.tags.insert("c") }, spoil: { $0.tags.insert("d") }, kind: "set")
    }

    @Test("A dictionary is saved as the entries inserted, removed and updated")
    func dictionary() throws {
        try check({ $0.table["x"]!.title = "X"; $0.table["y"] = Memo(title: "y", count: 1) }, spoil: { $0.table["x"]!.title = "Z" }, kind: "dict")
        try check({ $0.counts["one"] = nil; $0.counts["two"] = 2 }, spoil: { $0.counts["three"] = 3 }, kind: "dict")
        try check({ $0.counts["one"] = 11 }, spoil: { $0.counts["one"] = 12 }, kind: "dict")
    }

    @Test("An array of Equatable elements is saved as the elements removed and inserted")
    func difference() throws {
        try check({ $0.scores = [3, 9, 1, 2] }, spoil: { $0.scores.append(0) }, kind: "diff")
    }

    @Test("An identifiable array is saved as edits by id, moves, inserts and removes")
    func identified() throws {
        let more = (2...6).map { Item(id: $0, title: "item \($0)", done: false, children: []) }
        try check({ $0.items[0].title = "oat milk" }, spoil: { $0.items[0].title = "soy" }, kind: "ids")
        try check({ $0.items += more }, spoil: { $0.items.removeLast() }, kind: "ids")
        var start = base
        start.items += more
        var edited = start
        edited.items.reverse()
        edited.items[2].done = true
        edited.items.insert(Item(id: 9, title: "new", done: false, children: []), at: 1)
        edited.items.remove(at: 4)
        let reversion = try #require(edited.reversion(to: start))
        var spoiled = edited
        spoiled.items.swapAt(0, 1)
        try expectSavedExactly(reversion, from: start, to: edited, wrong: [spoiled, start])
    }

    @Test("A tree array is saved as an identifiable array is")
    func tree() throws {
        try check({ $0.rows[1].title = "r2!" }, spoil: { $0.rows[1].title = "r2?" }, kind: "tree")
        try check({ $0.rows.insert(Row(id: 3, title: "r3", done: false), at: 0); $0.rows.swapAt(1, 2) }, spoil: { $0.rows.removeLast() }, kind: "tree")
    }

    @Test("A type that ignores properties is saved whole, and the ignored property stays as it is")
    func whole() throws {
        try check({ $0.sticky.loose = 4 }, spoil: { $0.sticky.loose = 5 }, kind: "whole")
        var edited = base
        edited.sticky.loose = 4
        let copy: Reversion<Doc> = try decoded(try encoded(try #require(edited.reversion(to: base))))
        edited.sticky.hover = 99
        try copy.revert(&edited)
        #expect(edited.sticky.hover == 99 && edited.sticky.loose == 0)
    }

    @Test("Several changes are saved as one, applied all or nothing")
    func composite() throws {
        try check({ $0.count = 2; $0.title = "x"; $0.items[0].done = true }, spoil: { $0.items[0].done = false }, kind: "all")
    }

    @Test("An inverted change nested in another value is saved inverted")
    func inverted() throws {
        var edited = base.note
        edited.title = "changed"
        let inner = try #require(edited.reversion(to: base.note))
        // Applied forward, as a redo: from `base.note` to `edited`.
        let nested = Reversion<Doc>(node: inner.inverted.node(at: \Doc.note))
        var after = base
        after.note = edited
        let json = String(decoding: try encoded(nested), as: UTF8.self)
        #expect(json.contains("\"k\":\"invert\""))
        try expectSavedExactly(nested, from: after, to: base, wrong: [after])
    }

    @Test("Every kind of change reads the same straight from JSON as through Decoder")
    func everyKindReadDirectly() throws {
        let edits: [(kind: String, edit: (inout Doc) -> Void)] = [
            ("value", { $0.count = 7 }),
            ("range", { $0.title = "Grocéries!" }),
            ("path", { $0.note.count = 5 }),
            ("some", { $0.maybe?.title += "!" }),
            ("set", { $0.tags.remove("a"); $0.tags.insert("c") }),
            ("dict", { $0.table["x"]!.title = "X"; $0.table["y"] = Memo(title: "y", count: 1); $0.counts["one"] = nil }),
            ("diff", { $0.scores = [3, 9, 1, 2] }),
            ("ids", { $0.items[0].title = "oat milk"; $0.items.append(Item(id: 2, title: "b", done: false, children: [])) }),
            ("tree", { $0.rows.insert(Row(id: 3, title: "r3", done: false), at: 0); $0.rows[2].title = "r2!" }),
            ("whole", { $0.sticky.loose = 4 }),
            ("all", { $0.count = 2; $0.title = "x" }),
        ]
        var kinds = Set<String>()
        for (kind, edit) in edits {
            var edited = base
            edit(&edited)
            let reversion = try #require(edited.reversion(to: base))
            #expect(String(decoding: try encoded(reversion), as: UTF8.self).contains("\"k\":\"\(kind)\""), "\(kind)")
            try expectReadAlike(reversion, from: base, to: edited)
            try expectReadAlike(reversion.inverted, from: edited, to: base)
            kinds.insert(kind)
        }
        // Inverted inside another change, and a text buffer's change, have roots of their own.
        var note = base.note
        note.title = "changed"
        var after = base
        after.note = note
        let inverted = Reversion<Doc>(node: try #require(note.reversion(to: base.note)).inverted.node(at: \Doc.note))
        try expectReadAlike(inverted, from: after, to: base)
        kinds.insert("invert")
        let text = TextBuffer("Hello, world")
        var typed = text
        typed.insert("é", atUTF8Offset: 5)
        try expectReadAlike(try #require(typed.reversion(to: text)), from: text, to: typed)
        kinds.insert("text")
        #expect(kinds == Set(NodeKind.allCases.map(\.rawValue)))
    }

    /// Checks that `reversion`, which reverts `b` to `a`, saved and read straight from the
    /// JSON reads as through `Decoder` (`JSONDecoder`'s and the library's): the same content,
    /// which reverts `b` to `a`, and writes the same JSON.
    private func expectReadAlike<Root: Codable & Equatable>(
        _ reversion: Reversion<Root>, from a: Root, to b: Root, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = try encoded(reversion)
        let kind = String(decoding: data.prefix(200), as: UTF8.self)
        let direct: Reversion<Root> = try readDirectly(data)
        let throughDecoder = try JSONDocumentDecoding.decode(Reversion<Root>.self, from: [UInt8](data))
        let foundation = try JSONDecoder().decode(Reversion<Root>.self, from: data)
        #expect(try HistoryArchiveChecksum.of(direct) == HistoryArchiveChecksum.of(throughDecoder), "\(kind)", sourceLocation: sourceLocation)
        #expect(try HistoryArchiveChecksum.of(direct) == HistoryArchiveChecksum.of(foundation), "\(kind)", sourceLocation: sourceLocation)
        #expect(try encoded(direct) == data, "\(kind)", sourceLocation: sourceLocation)
        var value = b
        try direct.revert(&value)
        #expect(value == a, "\(kind)", sourceLocation: sourceLocation)
    }

    @Test("A reversion of a whole string, set or array saves its location as \\Type.self")
    func identity() throws {
        let reversion = try #require("héllo wörld".reversion(to: "hello world"))
        #expect(String(decoding: try encoded(reversion), as: UTF8.self).contains(#""p":"\\String.self""#))
        try expectSavedExactly(reversion, from: "hello world", to: "héllo wörld", wrong: ["hello"])
        let set = try #require(Set([1, 4]).reversion(to: [1, 2]))
        try expectSavedExactly(set, from: [1, 2], to: [1, 4], wrong: [[1, 2, 4]])
        let items = [Item(id: 1, title: "a", done: false, children: []), Item(id: 2, title: "b", done: true, children: [])]
        let reordered = try #require(Array(items.reversed()).reversion(to: items))
        try expectSavedExactly(reordered, from: items, to: items.reversed(), wrong: [items])
    }

    @Test("Nested and generic types round-trip")
    func nestedAndGenericTypes() throws {
        let a = Box(value: 1, inner: .init(label: "a", size: 1))
        var b = a
        b.value = 2
        b.inner.label = "b"
        let reversion = try #require(b.reversion(to: a))
        let json = String(decoding: try encoded(reversion), as: UTF8.self)
        #expect(json.contains(#"\\Box<Int>.value"#) && json.contains(#"\\Inner.label"#), "\(json)")
        try expectSavedExactly(reversion, from: a, to: b, wrong: [a])

        let c = Box(value: ["x"], inner: .init(label: "", size: 0))
        var d = c
        d.value.append("y")
        d.inner.size = 3
        try expectSavedExactly(try #require(d.reversion(to: c)), from: c, to: d, wrong: [c])
    }

    @Test("The format is short and readable")
    func format() throws {
        var edited = base
        edited.count = 2
        let json = String(decoding: try encoded(try #require(edited.reversion(to: base))), as: UTF8.self)
        #expect(json == #"{"c":{"k":"value","n":2,"o":1,"p":"\\Doc.count"},"v":1}"#)
        let inverted = String(decoding: try encoded(try #require(edited.reversion(to: base)).inverted), as: UTF8.self)
        #expect(inverted == #"{"c":{"k":"value","n":2,"o":1,"p":"\\Doc.count"},"inv":true,"v":1}"#)
    }
}

/// What a saved reversion costs: the change, never a copy of the list around it.
@Suite("Saved size")
struct ReversionCodingSizeTests {

    private static let items = (0..<10_000).map { Item(id: $0, title: "Item number \($0)", done: false, children: []) }

    @Test("One title edit in 10,000 items is a few hundred bytes, in an array and in a tree array")
    func oneEdit() throws {
        let list = ItemList(items: Self.items)
        var editedList = list
        editedList.items[6_000].title += " (edited)"
        let listReversion = try #require(editedList.reversion(to: list))
        let listBytes = try encoded(listReversion).count
        #expect(listBytes < 600, "\(listBytes) bytes")
        try expectSavedExactly(listReversion, from: list, to: editedList, wrong: [list])

        let tree = ItemTree(items: TreeArray(Self.items))
        var editedTree = tree
        editedTree.items[6_000].title += " (edited)"
        let treeReversion = try #require(editedTree.reversion(to: tree))
        let treeBytes = try encoded(treeReversion).count
        #expect(treeBytes < 600, "\(treeBytes) bytes")
        try expectSavedExactly(treeReversion, from: tree, to: editedTree, wrong: [tree])
        print("one title edit in 10,000 items: [Item] \(listBytes) bytes, TreeArray<Item> \(treeBytes) bytes")
    }
}

/// A saved reversion outlives the app's next version when it still fits, and is refused, with
/// the location named, when it does not.
@Suite("Saved reversions and changed types")
struct ReversionCodingEvolutionTests {

    private let old = V1.Todo(title: "milk", done: false)

    private func saved() throws -> Data {
        var new = old
        new.title = "oat milk"
        new.done = true
        return try encoded(try #require(new.reversion(to: old)))
    }

    @Test("A type that gained a property reads what its older version saved")
    func addedProperty() throws {
        let reversion: Reversion<V2.Todo> = try decoded(try saved())
        var todo = V2.Todo(title: "oat milk", done: true, priority: 3)
        try reversion.revert(&todo)
        #expect(todo == V2.Todo(title: "milk", done: false, priority: 3))
        try reversion.inverted.revert(&todo)
        #expect(todo == V2.Todo(title: "oat milk", done: true, priority: 3))
        var wrong = V2.Todo(title: "tea", done: true, priority: 3)
        #expect(throws: ReversionError.attemptingToRevertWrongVersion) { try reversion.revert(&wrong) }
        #expect(wrong == V2.Todo(title: "tea", done: true, priority: 3))
    }

    @Test("A removed property is refused, with the location named")
    func removedProperty() throws {
        let data = try saved()
        let message = try #require(errorDescription { _ = try decoded(data, as: V3.Todo.self) })
        #expect(message.contains(#"no stored property "title" in Todo for \Todo.title"#), "\(message)")
    }

    @Test("A property whose type changed is refused, with the location named")
    func changedType() throws {
        let data = try saved()
        let message = try #require(errorDescription { _ = try decoded(data, as: V4.Todo.self) })
        #expect(message.contains(#"\Todo.title"#), "\(message)")
    }

    @Test("A value whose type is not Encodable is refused, with the location and the type named")
    func notEncodable() throws {
        // Not empty: a zero-sized property shares its offset with the next one, and Swift
        // prints a key path to either with the first one's name (which saving refuses).
        struct Opaque: Equatable { var size = 0 }
        struct Holder: Versionable, Encodable {
            var opaque = Opaque()
            var flag = false
            func encode(to encoder: any Encoder) throws {}
            func addReversions(into reverter: inout some Reverter<Holder>) {
                reverter.appendReversion(at: \.opaque)
                reverter.appendReversion(at: \.flag)
            }
        }
        var a = Holder()
        a.flag = true
        let reversion = try #require(Holder().reversion(to: a))
        #expect(throws: Never.self) { try encoded(reversion) }
        let unsavable = Reversion<Holder>(node: ValueChange(at: \Holder.opaque, from: Opaque(), to: Opaque()))
        let message = try #require(errorDescription { _ = try encoded(unsavable) })
        #expect(message.contains("invalidValue") && message.contains(#"\Holder.opaque"#) && message.contains("Opaque is not Encodable"), "\(message)")
    }

    @Test("A change at a computed key path is saved as its type's whole value")
    func computedLocation() throws {
        let a = Board(name: "", items: [], labels: [], lookup: [:], mode: .editing(field: "a", cursor: 1), note: nil,
                      rating: nil, pinned: nil, body: "", blob: Data(), scores: [])
        var b = a
        b.mode = .editing(field: "b", cursor: 1)
        let reversion = try #require(b.reversion(to: a))
        let data = try encoded(reversion)
        #expect(!String(decoding: data, as: UTF8.self).contains("0x"))
        let copy: Reversion<Board> = try decoded(data)
        var value = b
        try copy.revert(&value)
        #expect(value == a)
    }

    @Test("A location with a subscript is refused, never written as an address")
    func subscriptLocation() throws {
        let unsavable = Reversion<Board>(node: ValueChange(at: \Board.scores[0], from: 1, to: 2))
        let message = try #require(errorDescription { _ = try encoded(unsavable) })
        #expect(message.contains("computed property or a subscript") && !message.contains("0x"), "\(message)")
    }
}
