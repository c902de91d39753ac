import Foundation
import Revertible
import Testing
import TestSupport

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

/// Issue 29, and issue 37: a damaged archive is refused, naming the step: when it loads if
/// the damage is in its structure or next to the present, else by every command that reads
/// the damaged step, which then changes nothing; `validate(present:)` refuses it whole.
@Suite struct HistoryArchiveDamageTests {

    /// What a refused command must leave as it was: the value and everything observable
    /// about the history.
    private struct Observed: Equatable {
        let value: NotesDocument
        let history: HistoryObservation

        init(_ controller: VersioningController<NotesDocument, NotesDocument, HistoryError>) {
            value = controller.currentVersion
            history = HistoryObservation(controller)
        }
    }

    /// The saved archive of ``NotesDocument/issue29Controller()`` with one byte changed: the
    /// text of a note the step to `version` inserted, `"n<version>"` saved as `"[<version>"`,
    /// with every step's checksum, or without any (as archives saved before sums were).
    private func damagedArchive(
        _ controller: ValueVersioningController<NotesDocument>, noteOf version: Int, keepChecksum: Bool
    ) throws -> HistoryArchive<NotesDocument> {
        var bytes = Array(try JSONEncoder().encode(controller.archive))
        let needle = Array(#""n\#(version)""#.utf8)
        let matches = bytes.indices.filter { bytes[$0...].starts(with: needle) }
        #expect(matches.count == 1)
        let at = try #require(matches.first) + 1
        bytes[at] = UInt8(ascii: "[")
        if !keepChecksum {
            // The key may come first or last in its object: JSONEncoder keeps no order.
            let count = bytes.count
            bytes = Array(String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: #","sum":"[0-9a-f]+""#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #""sum":"[0-9a-f]+","#, with: "", options: .regularExpression).utf8)
            #expect(bytes.count < count)
        }
        return try readArchive(HistoryArchive<NotesDocument>.self, from: Data(bytes))
    }

    /// Expects `message` to name the step to `version` in the scope at `level`, and what is
    /// wrong with it: its checksum, or, without one, the location where it does not apply.
    private func expectNamesTheStep(_ message: String, _ version: Int, scope level: Int, checksum: Bool) {
        #expect(message.contains("v\(version) ") || message.contains("v\(version))"), "\(message)")
        #expect(message.contains("scope \(level)"), "\(message)")
        #expect(message.contains(checksum ? "checksum" : "NotesDocument.notes"), "\(message)")
    }

    /// Runs each of `commands` twice on `loaded` and expects each run to be refused for the
    /// damaged step to `version`, and to change nothing.
    private func expectRefused(
        _ commands: [(String, () throws -> Void)], on loaded: ValueVersioningController<NotesDocument>,
        step version: Int, scope level: Int, checksum: Bool
    ) {
        for (name, command) in commands {
            let before = Observed(loaded)
            // Twice: a refused step is refused again, never taken for a missing one.
            for attempt in 1...2 {
                let error = #expect(throws: HistoryError.self, "\(name), attempt \(attempt)") { try command() }
                guard case let .unreadableStep(refused, stepError) = error else {
                    Issue.record("\(name): expected an unreadable step, got \(String(describing: error))")
                    continue
                }
                #expect(refused == HistoryVersion(UInt64(version)), "\(name)")
                expectNamesTheStep(stepError.message, version, scope: level, checksum: checksum)
                #expect(Observed(loaded) == before, "\(name): a refused command changed the history")
                #expect(loaded.error == error, "\(name)")
            }
        }
    }

    /// Issue 29's damage: the note inserted by the open scope's first step, "n10" saved as
    /// "[10" (issue 29 counts it as note 9). The step still decodes, and it is not next to the
    /// present (the scope stands at 12, whose parent is 10). Before issue 29 it loaded and
    /// neither `popCurrentScope` nor `undoAndPopCurrentScope` could end the scope; since, it
    /// is refused naming the step: at load with its checksum (placing step 12 below it reads
    /// it), else, as loading applies only the steps next to the present, by every command
    /// that applies it, which changes nothing, while commands that do not apply it work.
    @Test func issue29DamageIsRefusedNamingTheStep() throws {
        let controller = try NotesDocument.issue29Controller()
        #expect(controller.scopeLevel == 1)
        for keepChecksum in [true, false] {
            let archive = try damagedArchive(controller, noteOf: 10, keepChecksum: keepChecksum)
            // Checked whole, on demand.
            let invalid = #expect(throws: HistoryArchiveError.self) { try archive.validate(present: controller.currentVersion) }
            expectNamesTheStep(invalid?.message ?? "", 10, scope: 1, checksum: keepChecksum)

            let loaded = ValueVersioningController(controller.currentVersion)
            if keepChecksum {
                let error = #expect(throws: HistoryArchiveError.self) { try loaded.restoreHistory(from: archive) }
                expectNamesTheStep(error?.message ?? "", 10, scope: 1, checksum: true)
                // Refused: the new controller's history is untouched.
                #expect(loaded.scopeLevel == 0 && !loaded.hasUndo)
                continue
            }
            try loaded.restoreHistory(from: archive)
            #expect(loaded.scopeLevel == 1 && loaded.undoCount == 2)
            expectRefused([
                ("undo the scope", { _ = try loaded.undo(to: .steps(2)) }),
                ("move to its floor", { _ = try loaded.move(to: .version(HistoryVersion(9))) }),
                ("pop the scope", { try loaded.popCurrentScope() }),
                ("abandon the scope", { _ = try loaded.undoAndPopCurrentScope() }),
            ], on: loaded, step: 10, scope: 1, checksum: false)
            // What does not apply the damaged step still works: the step undo takes first,
            // and back.
            try loaded.undo()
            try loaded.redo()
            #expect(loaded.currentVersion == controller.currentVersion && loaded.currentVersionID == controller.currentVersionID)
        }
    }

    /// A damaged step deep in the outer scope (note "n4", on the path from the present to the
    /// first version, but neither next to the present nor below a step loading reads) loads,
    /// with its checksum or without: each command that reads it is refused naming it, and
    /// changes nothing; the others work.
    @Test func aDamagedStepFarFromThePresentIsRefusedWhereItIsRead() throws {
        let controller = try NotesDocument.issue29Controller()
        for keepChecksum in [true, false] {
            let archive = try damagedArchive(controller, noteOf: 4, keepChecksum: keepChecksum)
            let invalid = #expect(throws: HistoryArchiveError.self) { try archive.validate(present: controller.currentVersion) }
            expectNamesTheStep(invalid?.message ?? "", 4, scope: 0, checksum: keepChecksum)

            let loaded = ValueVersioningController(controller.currentVersion)
            try loaded.restoreHistory(from: archive)
            // The scope above reads nothing of it.
            try loaded.undo(to: .steps(2))
            try loaded.redo(to: .steps(2))
            try loaded.undoAndPopCurrentScope()
            #expect(loaded.scopeLevel == 0)
            let top = loaded.currentVersionID
            expectRefused([
                ("undo to the first version", { _ = try loaded.undo(to: .steps(loaded.undoCount)) }),
                ("move to the first version", { _ = try loaded.move(to: .version(HistoryVersion(0))) }),
                ("move past it", { _ = try loaded.move(to: .version(HistoryVersion(2))) }),
            ], on: loaded, step: 4, scope: 0, checksum: keepChecksum)
            // Short of it, undo and redo work.
            try loaded.undo(to: .steps(2))
            try loaded.redo(to: .steps(2))
            #expect(loaded.currentVersionID == top)
        }
    }

    /// Loading for a present that other programs also write (`checkingEveryStep: false`, the
    /// `todo` example's), whose callers save what they load, reads every step at once: the
    /// same deep damage is refused at load, by its checksum, and only then.
    @Test func loadingForOtherWritersReadsEveryStep() throws {
        let controller = try NotesDocument.issue29Controller()
        let damaged = try damagedArchive(controller, noteOf: 4, keepChecksum: true)
        let error = #expect(throws: HistoryArchiveError.self) {
            _ = try History<NotesDocument, NoAnnotation>(present: controller.currentVersion, archive: damaged, checkingEveryStep: false)
        }
        expectNamesTheStep(error?.message ?? "", 4, scope: 0, checksum: true)
        _ = try History<NotesDocument, NoAnnotation>(present: controller.currentVersion, archive: controller.archive, checkingEveryStep: false)
    }

    /// `validate(present:)` applies every step; loading applies only those next to the
    /// present, so a present that differs where only an older step looks loads, and the undo
    /// that reaches that step is refused, naming where, and changes nothing.
    @Test func validateChecksWhatLoadingLeavesToTheCommands() throws {
        let controller = try NotesDocument.issue29Controller()
        let archive = controller.archive
        try archive.validate(present: controller.currentVersion)
        var other = controller.currentVersion
        other.notes[0].text = "changed"
        let error = #expect(throws: HistoryArchiveError.self) { try archive.validate(present: other) }
        #expect(error?.message.contains("NotesDocument.notes") == true, "\(String(describing: error))")

        let loaded = ValueVersioningController(other)
        try loaded.restoreHistory(from: archive)
        try loaded.undoAndPopCurrentScope()
        let before = Observed(loaded)
        let refusal = #expect(throws: HistoryError.self) { try loaded.undo(to: .steps(loaded.undoCount)) }
        guard case let .unreadableStep(_, stepError) = refusal else {
            Issue.record("expected an unreadable step, got \(String(describing: refusal))")
            return
        }
        #expect(stepError.message.contains("NotesDocument.notes"), "\(stepError)")
        #expect(Observed(loaded) == before)
    }

    /// The same history, undamaged, loads and is fully usable.
    @Test func theUndamagedArchiveLoadsAndItsScopeEnds() throws {
        let controller = try NotesDocument.issue29Controller()
        let data = try JSONEncoder().encode(controller.archive)
        let archive = try readArchive(HistoryArchive<NotesDocument>.self, from: data)
        try archive.validate(present: controller.currentVersion)
        let loaded = ValueVersioningController(controller.currentVersion)
        try loaded.restoreHistory(from: archive)
        #expect(loaded.scopeLevel == 1)
        try loaded.popCurrentScope()
        #expect(loaded.scopeLevel == 0)
        try loaded.undo(to: .steps(loaded.undoCount))
        #expect(loaded.currentVersion == NotesDocument(title: "", notes: []))
    }

    /// Damage to the structure, or to a step next to the present, is still refused when the
    /// archive loads, and the controller is left as it was.
    @Test func damageToTheStructureOrNextToThePresentIsRefusedAtLoad() throws {
        let controller = try NotesDocument.issue29Controller()
        let json = String(decoding: try JSONEncoder().encode(controller.archive), as: UTF8.self)
        // The step the present's undo takes (12, "n12") and the outline's `next` counter.
        let damaged = [
            json.replacingOccurrences(of: #""n12""#, with: #""m12""#),
            json.replacingOccurrences(of: #""next":13"#, with: #""next":11"#),
        ]
        for text in damaged {
            #expect(text != json)
            let archive = try readArchive(HistoryArchive<NotesDocument>.self, from: Data(text.utf8))
            let loaded = ValueVersioningController(controller.currentVersion)
            #expect(throws: HistoryArchiveError.self) { try loaded.restoreHistory(from: archive) }
            #expect(loaded.scopeLevel == 0 && !loaded.hasUndo)
        }
    }
    /// A version the outline lists no branches for, while two saved steps lead from it (the
    /// fuzz target's find: a step's parent changed from 1 to 0). A history reads the branches
    /// of every listed version from its outline and the others from the steps, so the steps
    /// alone would give the version branches in an order nothing saved, and the limit would
    /// trim it as a single chain. A whole archive is refused at load; over a store, by the
    /// first command that reads the version's branches (here the undo to it), which changes
    /// nothing, and by
    /// `validate(present:)` and the store's whole check.
    @Test func aVersionWithBranchesTheOutlineDoesNotListIsRefused() throws {
        var document = NotesDocument(title: "", notes: [])
        let controller = ValueVersioningController(document)
        document.title = "a"
        controller.append(document)
        document = try controller.undo()
        document.title = "b"
        controller.append(document)
        let json = String(decoding: try JSONEncoder().encode(controller.archive), as: UTF8.self)
        let unlisted = json.replacingOccurrences(of: #""branches":[[0,1,2]]"#, with: #""branches":[]"#)
            .replacingOccurrences(of: #""branches":[[0,2,1]]"#, with: #""branches":[]"#)
        #expect(unlisted != json)
        let archive = try readArchive(HistoryArchive<NotesDocument>.self, from: Data(unlisted.utf8))

        let whole = ValueVersioningController(document)
        let error = #expect(throws: HistoryArchiveError.self) { try whole.restoreHistory(from: archive) }
        #expect(error?.message.contains("lists no branches") == true, "\(String(describing: error))")
        #expect(!whole.hasUndo)
        #expect(throws: HistoryArchiveError.self) { try archive.validate(present: document) }

        let stored = ValueVersioningController(document)
        try stored.openHistory(from: InMemoryHistoryStepStore(archive))
        #expect(stored.currentVersion == document)
        // Undo reads v0's branches, to mark the one redo follows.
        let before = Observed(stored)
        let refused = #expect(throws: HistoryError.self) { try stored.undo() }
        guard case let .unreadableStep(version, stepError) = refused else {
            Issue.record("expected an unreadable step, got \(String(describing: refused))")
            return
        }
        #expect(version == HistoryVersion(0))
        #expect(stepError.message.contains("lists no branches"), "\(stepError.message)")
        #expect(Observed(stored) == before)
    }
}
