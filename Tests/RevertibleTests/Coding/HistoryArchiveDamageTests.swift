import Foundation
import Revertible
import Testing

/// A small document of the kind issue 29 damaged: a title and an identifiable array of notes.
struct NotesDocument: Versionable, Hashable, Sendable, Codable {
    var title: String
    var notes: [Note]

    struct Note: Identifiable, Versionable, Hashable, Sendable, Codable {
        let id: Int
        var text: String

        func addReversions(into reverter: inout some Reverter<Self>) {
            reverter.appendReversion(at: \.text)
        }
    }

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.appendReversion(at: \.notes)
    }

    /// The history of issue 29: 12 appends (each adds note "n<i>" and a character to the
    /// title), an undo before the 4th, 8th and 12th, a tag after the 6th, and a scope pushed
    /// after the 9th, left open.
    static func issue29Controller() throws -> ValueVersioningController<NotesDocument> {
        var document = NotesDocument(title: "", notes: [])
        let controller = ValueVersioningController(document)
        for index in 1...12 {
            if index % 4 == 0 { document = try controller.undo() }
            document.notes.append(Note(id: index, text: "n\(index)"))
            document.title.append(Character(UnicodeScalar(UInt8(96 + index))))
            controller.append(document)
            if index == 6 { controller.tag("six") }
            if index == 9 { controller.pushNewScope() }
        }
        return controller
    }
}

/// Issue 29: damaged archives are refused, naming the step, or load fully usable.
@Suite struct HistoryArchiveDamageTests {

    /// The saved archive of ``NotesDocument/issue29Controller()`` with one byte changed: the
    /// text of the note inserted by the open scope's first step, "n10" saved as "[10" (issue 29
    /// counts it as note 9). The step still decodes; it is not next to the present (the scope
    /// stands at 12, whose parent is 10), so a check of the present alone accepted it, and
    /// then neither `popCurrentScope` nor `undoAndPopCurrentScope` could end the scope.
    @Test func oneDamagedByteInTheOpenScopeIsRefusedNamingTheStep() throws {
        let controller = try NotesDocument.issue29Controller()
        #expect(controller.scopeLevel == 1)
        var bytes = Array(try JSONEncoder().encode(controller.archive))
        let needle = Array(#""n10""#.utf8)
        let matches = bytes.indices.filter { bytes[$0...].starts(with: needle) }
        #expect(matches.count == 1)
        let at = try #require(matches.first) + 1
        bytes[at] = UInt8(ascii: "[")
        // The checksum alone would refuse it; without it, the chain must: both are checked.
        for keepChecksum in [true, false] {
            var damaged = bytes
            if !keepChecksum {
                // The key may come first or last in its object: JSONEncoder keeps no order.
                damaged = Array(String(decoding: damaged, as: UTF8.self)
                    .replacingOccurrences(of: #","sum":"[0-9a-f]+""#, with: "", options: .regularExpression)
                    .replacingOccurrences(of: #""sum":"[0-9a-f]+","#, with: "", options: .regularExpression).utf8)
                #expect(damaged.count < bytes.count)
            }
            let archive = try JSONDecoder().decode(HistoryArchive<NotesDocument>.self, from: Data(damaged))
            let loaded = ValueVersioningController(controller.currentVersion)
            let error = #expect(throws: HistoryArchiveError.self) { try loaded.restoreHistory(from: archive) }
            let message = error?.message ?? ""
            #expect(message.contains("v10"), "\(message)")
            #expect(message.contains("scope 1"), "\(message)")
            if !keepChecksum {
                #expect(message.contains("NotesDocument.notes"), "\(message)")
            }
            // Refused: the new controller's history is untouched.
            #expect(loaded.scopeLevel == 0 && !loaded.hasUndo)
        }
    }

    /// `validate(present:)`, the check a store can run alone, says what loading says.
    @Test func validateRunsTheSameCheck() throws {
        let controller = try NotesDocument.issue29Controller()
        let archive = controller.archive
        try archive.validate(present: controller.currentVersion)
        var other = controller.currentVersion
        other.notes[0].text = "changed"
        let error = #expect(throws: HistoryArchiveError.self) { try archive.validate(present: other) }
        #expect(error?.message.contains("NotesDocument.notes") == true, "\(String(describing: error))")
        let loaded = ValueVersioningController(other)
        let restoreError = #expect(throws: HistoryArchiveError.self) { try loaded.restoreHistory(from: archive) }
        #expect(restoreError == error)
    }

    /// The same history, undamaged, loads and is fully usable.
    @Test func theUndamagedArchiveLoadsAndItsScopeEnds() throws {
        let controller = try NotesDocument.issue29Controller()
        let data = try JSONEncoder().encode(controller.archive)
        let archive = try JSONDecoder().decode(HistoryArchive<NotesDocument>.self, from: data)
        let loaded = ValueVersioningController(controller.currentVersion)
        try loaded.restoreHistory(from: archive)
        #expect(loaded.scopeLevel == 1)
        try loaded.popCurrentScope()
        #expect(loaded.scopeLevel == 0)
        try loaded.undo(to: .steps(loaded.undoCount))
        #expect(loaded.currentVersion == NotesDocument(title: "", notes: []))
    }
}
