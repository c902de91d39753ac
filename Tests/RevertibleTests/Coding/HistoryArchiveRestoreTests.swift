import Foundation
import Revertible
import Testing

/// Issue 22, bugs 2 and 5: histories that must load, and do.
@Suite("Restoring a saved history: what must load")
struct HistoryArchiveRestoreTests {

    private func roundTrip(_ archive: HistoryArchive<NotesDocument>) throws -> HistoryArchive<NotesDocument> {
        try readArchive(HistoryArchive<NotesDocument>.self, from: JSONEncoder().encode(archive))
    }

    /// Bug 2: with a limit of 2, the limit folds the open scope's first step into its start;
    /// saved and loaded, that history was refused as saved with another present.
    @Test("A trimmed open scope saves and loads, and still pops and abandons to its start")
    func trimmedOpenScopeReloads() throws {
        var document = NotesDocument(title: "a", notes: [])
        let controller = VersioningController(document, historyLimit: 2)
        document.title = "ab"
        controller.append(document)
        controller.pushNewScope()
        for (index, letter) in ["c", "d", "e"].enumerated() {
            document.title += letter
            document.notes.append(.init(id: index, text: letter))
            controller.append(document)
        }
        #expect(controller.scopeLevel == 1 && controller.undoCount == 2)
        let archive = try roundTrip(controller.archive)
        for abandon in [false, true] {
            let loaded = VersioningController(controller.currentVersion, historyLimit: 2)
            try loaded.restoreHistory(from: archive)
            #expect(loaded.scopeLevel == 1 && loaded.undoCount == 2)
            if abandon {
                try loaded.undoAndPopCurrentScope()
                #expect(loaded.currentVersion == NotesDocument(title: "ab", notes: []))
            } else {
                try loaded.popCurrentScope()
                try loaded.undo()
                #expect(loaded.currentVersion == NotesDocument(title: "ab", notes: []))
            }
        }
    }

    /// Bug 5: the present handed to `restoreHistory` is `==` to the saved one but spells a
    /// string in the other Unicode normalization form; equality is the contract, so it loads,
    /// and undo works.
    @Test("A present equal to the saved one but spelled in another normalization form loads", arguments: [true, false])
    func respelledPresentLoads(savedComposed: Bool) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let (saved, other) = savedComposed ? (composed, decomposed) : (decomposed, composed)
        var document = NotesDocument(title: "x", notes: [.init(id: 1, text: "n")])
        let controller = ValueVersioningController(document)
        document.title = saved
        controller.append(document)
        document.title = saved + "!"
        document.notes[0].text = saved
        controller.append(document)
        let archive = try roundTrip(controller.archive)

        // A string reached through stored properties; one inside a collection is not tried.
        var present = controller.currentVersion
        present.title = other + "!"
        #expect(present == controller.currentVersion)
        #expect(Array(present.title.utf8) != Array(controller.currentVersion.title.utf8))

        let loaded = ValueVersioningController(present)
        try loaded.restoreHistory(from: archive)
        #expect(loaded.currentVersion == present)
        try loaded.undo()
        #expect(loaded.currentVersion.title == composed && loaded.currentVersion.notes[0].text == "n")
        try loaded.undo()
        #expect(loaded.currentVersion == NotesDocument(title: "x", notes: [.init(id: 1, text: "n")]))
        try loaded.redo(to: .steps(2))
        #expect(loaded.currentVersion == present)
    }

    /// A present that is not equal stays refused, whatever its spelling.
    @Test("A present that differs, not only in spelling, is still refused")
    func differentPresentIsRefused() throws {
        var document = NotesDocument(title: "caf\u{E9}", notes: [])
        let controller = ValueVersioningController(document)
        document.title += "!"
        controller.append(document)
        let loaded = ValueVersioningController(NotesDocument(title: "cafe!", notes: []))
        #expect(throws: HistoryArchiveError.self) { try loaded.restoreHistory(from: controller.archive) }
        #expect(!loaded.hasUndo)
    }
}
