import Foundation
import Testing
@testable import Revertible

/// A tree array's change wherever it sits: as a property, inside an optional, inside a nested
/// value, beside other changes, on its own.
private struct Shelf: Versionable, Codable, Sendable {
    var label = "shelf"
    var rows: TreeArray<Row>
    var spare: TreeArray<Row>?
    var inner: Drawer

    func addReversions(into reverter: inout some Reverter<Shelf>) {
        reverter.appendReversion(at: \.label)
        reverter.appendReversion(at: \.rows)
        reverter.appendReversion(at: \.spare)
        reverter.appendReversion(at: \.inner)
    }
}

private struct Drawer: Versionable, Codable, Sendable {
    var rows: TreeArray<Row>

    func addReversions(into reverter: inout some Reverter<Drawer>) {
        reverter.appendReversion(at: \.rows)
    }
}

/// A tree array reached through a computed property: no name to save it under.
private struct TreeLedger: Versionable, Codable, Sendable {
    var storage: TreeArray<Row>
    var rows: TreeArray<Row> {
        get { storage }
        set { storage = newValue }
    }

    func addReversions(into reverter: inout some Reverter<TreeLedger>) {
        reverter.appendReversion(at: \.rows)
    }
}

/// The saved form of a tree array's changes is fixed: written byte for byte as it always was,
/// however the change is held in memory, and read back into a change that writes it again
/// the same.
@Suite("TreeArray saved form")
struct TreeArraySavedFormTests {

    private let base = Shelf(
        rows: TreeArray([Row(id: 1, title: "r1", done: false), Row(id: 2, title: "r2", done: true)]),
        spare: TreeArray([Row(id: 5, title: "s5", done: false)]),
        inner: Drawer(rows: TreeArray([Row(id: 7, title: "d7", done: false)]))
    )

    private func saved(_ edit: (inout Shelf) -> Void) throws -> String {
        var edited = base
        edit(&edited)
        let reversion = try #require(edited.reversion(to: base))
        try expectSavedExactly(reversion, from: base, to: edited)
        let json = String(decoding: try encoded(reversion), as: UTF8.self)
        return json
    }

    @Test("A title edit in a tree array property")
    func edit() throws {
        #expect(try saved { $0.rows[1].title = "r2!" } == #"{"c":{"c":{"e":[{"c":{"at":2,"ca":"","cb":"r2","fp":"e24d6afdd7b4c5b8","k":"range","n":"!","nc":3,"o":"","oc":2,"p":"\\Row.title"},"id":2,"n":1,"o":1}],"k":"tree","nc":2,"oc":2},"k":"path","p":"\\Shelf.rows"},"v":1}"#)
    }

    @Test("An insert and a move in a tree array property")
    func structure() throws {
        #expect(try saved { $0.rows.insert(Row(id: 3, title: "r3", done: false), at: 0); $0.rows.swapAt(1, 2) } == #"{"c":{"c":{"e":[],"k":"tree","nc":3,"oc":2,"s":{"n":[{"e":{"done":false,"id":3,"title":"r3"},"i":0},{"i":1,"id":2,"m":1}],"o":[{"i":1,"id":2,"m":1}]}},"k":"path","p":"\\Shelf.rows"},"v":1}"#)
    }

    @Test("A tree array edited beside another property")
    func composite() throws {
        #expect(try saved { $0.label = "top"; $0.rows[0].done = true } == #"{"c":{"c":[{"at":0,"ca":"","cb":"","fp":"917afb3be3473541","k":"range","n":"top","nc":3,"o":"shelf","oc":5,"p":"\\Shelf.label"},{"c":{"e":[{"c":{"k":"value","n":true,"o":false,"p":"\\Row.done"},"id":1,"n":0,"o":0}],"k":"tree","nc":2,"oc":2},"k":"path","p":"\\Shelf.rows"}],"k":"all"},"v":1}"#)
    }

    @Test("A tree array inside an optional and inside a nested value")
    func nested() throws {
        #expect(try saved { $0.spare![0].title = "s5!"; $0.inner.rows.remove(at: 0) } == #"{"c":{"c":[{"c":{"c":{"e":[{"c":{"at":2,"ca":"","cb":"s5","fp":"37458fbb87e05da2","k":"range","n":"!","nc":3,"o":"","oc":2,"p":"\\Row.title"},"id":5,"n":0,"o":0}],"k":"tree","nc":1,"oc":1},"k":"some"},"k":"path","p":"\\Shelf.spare"},{"c":{"c":{"e":[],"k":"tree","nc":0,"oc":1,"s":{"n":[],"o":[{"e":{"done":false,"id":7,"title":"d7"},"i":0}]}},"k":"path","p":"\\Drawer.rows"},"k":"path","p":"\\Shelf.inner"}],"k":"all"},"v":1}"#)
    }

    @Test("A tree array's own reversion, and its inverse")
    func own() throws {
        var rows = base.rows
        rows[0].title = "r1?"
        let reversion = try #require(rows.reversion(to: base.rows))
        let json = String(decoding: try encoded(reversion), as: UTF8.self)
        let inverted = String(decoding: try encoded(reversion.inverted), as: UTF8.self)
        #expect(json == #"{"c":{"e":[{"c":{"at":2,"ca":"","cb":"r1","fp":"d9eaa79403b6f3ef","k":"range","n":"?","nc":3,"o":"","oc":2,"p":"\\Row.title"},"id":1,"n":0,"o":0}],"k":"tree","nc":2,"oc":2},"v":1}"#)
        #expect(inverted == #"{"c":{"e":[{"c":{"at":2,"ca":"","cb":"r1","fp":"d9eaa79403b6f3ef","k":"range","n":"?","nc":3,"o":"","oc":2,"p":"\\Row.title"},"id":1,"n":0,"o":0}],"k":"tree","nc":2,"oc":2},"inv":true,"v":1}"#)
        let copy: Reversion<TreeArray<Row>> = try decoded(Data(json.utf8))
        #expect(String(decoding: try encoded(copy), as: UTF8.self) == json)
    }

    /// Issue 38 added the text kept around a run (`ca`, `cb`) and its fingerprint (`fp`) to a
    /// range change's saved form. A form saved before them still loads, undoes, and saves again
    /// byte for byte as it was: no context is invented for it.
    @Test("A range change saved before its text context still loads, undoes and saves as it was")
    func savedBeforeTheTextContext() throws {
        let old = #"{"c":{"e":[{"c":{"at":2,"k":"range","n":"?","nc":3,"o":"","oc":2,"p":"\\Row.title"},"id":1,"n":0,"o":0}],"k":"tree","nc":2,"oc":2},"v":1}"#
        let copy: Reversion<TreeArray<Row>> = try decoded(Data(old.utf8))
        #expect(String(decoding: try encoded(copy), as: UTF8.self) == old)
        var rows = base.rows
        rows[0].title = "r1?"
        try copy.revert(&rows)
        #expect(rows == base.rows)
    }

    @Test("A tree array property's change is one node that carries its key path, recorded or read back")
    func oneNode() throws {
        var edited = base
        edited.rows[1].title = "r2!"
        let reversion = try #require(edited.reversion(to: base))
        #expect(reversion.node is TreeArrayChangeNode<Shelf, Row>, "\(type(of: reversion.node))")
        let copy: Reversion<Shelf> = try decoded(try encoded(reversion))
        #expect(copy.node is TreeArrayChangeNode<Shelf, Row>, "\(type(of: copy.node))")
        // Read straight from the JSON, as an archive is: the same one node.
        let direct: Reversion<Shelf> = try readDirectly(try encoded(reversion))
        #expect(direct.node is TreeArrayChangeNode<Shelf, Row>, "\(type(of: direct.node))")
        #expect(try encoded(direct) == encoded(reversion))
        #expect(reversion.changedKeyPaths.map { "\($0)" } == copy.changedKeyPaths.map { "\($0)" })
        #expect(reversion.changedKeyPaths.count == 1)
    }

    @Test("A tree array at a computed property is saved as its type's whole value")
    func computed() throws {
        let a = TreeLedger(storage: base.rows)
        var b = a
        b.rows[0].title = "r1!"
        let reversion = try #require(b.reversion(to: a))
        let json = String(decoding: try encoded(reversion), as: UTF8.self)
        #expect(!json.contains("0x") && !json.contains(#""k":"tree""#), "\(json)")
        let copy: Reversion<TreeLedger> = try decoded(Data(json.utf8))
        var value = b
        try copy.revert(&value)
        #expect(value == a)
        try reversion.revert(&b)
        #expect(b == a)
    }
}
