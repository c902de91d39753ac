import Foundation
@testable import Revertible
import Testing

// Issue 39: the seeded suites that record a value holding a `TreeArray` or a `TextBuffer` run
// each seed with writes journaled (transactions, whose trees are lent) and with every step
// found by comparing versions (`append`), and require the same observations
// (`ModelFailure.firstDifferenceBetweenRecordingModes`).

extension VersioningController {

    /// Whether transactions are recorded as the value's trees write them (the default); off,
    /// every step is found by comparing versions.
    var recordsWrites: Bool {
        get { storage.withLockUnchecked { $0.policy.recordsWrites } }
        set { storage.withLockUnchecked { $0.policy.recordsWrites = newValue } }
    }

    /// How many steps the journal recorded.
    var journaledStepCount: Int {
        storage.withLockUnchecked { $0.history.journaledStepCount }
    }
}

/// What a suite saw of a controller after one operation, which must not depend on the
/// recording mode: the present and the archive as saved (sorted keys), the undo and redo
/// counts, and the conflicts of the last move.
struct ControllerObservation: Equatable, CustomStringConvertible {
    var present: Data
    var undoCount: Int
    var redoCount: Int
    var conflicts: Int
    /// Taken where the suite saves, and at the end: with a `TestClock` each, the two modes'
    /// archives must be the same bytes.
    var archive: Data?
    /// The presents a controller that loads `archive` passes through as it undoes every step
    /// and redoes them again: what the saved steps do, whatever their bytes.
    var archiveWalk: [Data] = []

    init<Value: Versionable & Codable>(_ controller: VersioningController<Value, Value, HistoryError>, archive: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        present = try encoder.encode(controller.currentVersion)
        undoCount = controller.undoCount
        redoCount = controller.redoCount
        conflicts = controller.lastConflicts.count
        guard archive else { return }
        let saved = try encoder.encode(controller.archive)
        self.archive = saved
        let loaded = VersioningController<Value, Value, HistoryError>(controller.currentVersion, clock: TestClock())
        try loaded.restoreHistory(from: JSONDecoder().decode(HistoryArchive<Value>.self, from: saved))
        archiveWalk = [present]
        while loaded.undoCount > 0 {
            _ = try loaded.undo()
            archiveWalk.append(try encoder.encode(loaded.currentVersion))
        }
        while loaded.redoCount > 0 {
            _ = try loaded.redo()
            archiveWalk.append(try encoder.encode(loaded.currentVersion))
        }
    }

    var description: String {
        "present of \(present.count) bytes (\(Self.checksum(present))), \(undoCount) undo, \(redoCount) redo, "
            + "\(conflicts) conflicts" + (archive.map { ", archive of \($0.count) bytes (\(Self.checksum($0)))" } ?? "")
            + (archiveWalk.isEmpty ? "" : ", loaded and walked through \(archiveWalk.count) presents (\(Self.checksum(Data(archiveWalk.joined()))))")
    }

    /// FNV-1a of every byte, so two descriptions differ where the bytes do (`Data`'s hash
    /// reads only some of them).
    private static func checksum(_ data: Data) -> String {
        let sum = data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        return String(sum, radix: 16)
    }
}

/// Runs `run` with writes journaled and with every step compared, and records where the two
/// first saw different things, described by `context` (the seed and its replay command).
///
/// Archives that differ in their bytes alone (the same present, undo and redo before them,
/// and the same presents when loaded and walked back and forth) fail too: a saved step is
/// canonical, its bytes fixed by the two versions alone (a `TreeArray`'s moves by
/// `canonicalStaying(_:)`, a dictionary's entries by their keys), however the versions were
/// built.
func expectSameInBothRecordingModes(_ context: @autoclosure () -> String, _ run: (_ recordsWrites: Bool) throws -> [ControllerObservation]) rethrows {
    let difference = try ModelFailure.firstDifferenceBetweenRecordingModes(kind: { journaled, compared in
        var (journaled, compared) = (journaled, compared)
        (journaled.archive, compared.archive) = (nil, nil)
        return journaled == compared ? "archive bytes" : "recording modes differ"
    }, run)
    guard let difference else { return }
    Issue.record("\(context()), after operation \(difference.index + 1): \(difference.kind): \(difference.message)")
}
