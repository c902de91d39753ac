import Foundation
import Testing
@testable import Revertible

/// A value whose every location a reference can name: two properties, a dictionary's keys,
/// and the elements of an identified array and of a `TreeArray` (by id).
struct Cells: Versionable, Codable, Sendable {
    struct Cell: Identifiable, Versionable, Codable, Sendable, Hashable {
        let id: Int
        var value: Int

        func addReversions(into reverter: inout some Reverter<Self>) {
            reverter.appendReversion(at: \.value)
        }
    }

    var first = 0
    var second = 0
    var table: [Int: Int] = [:]
    var cells: [Cell] = []
    /// Written in the extended runs only, where a transaction's one write to it is journaled.
    var rows: TreeArray<Cell> = []

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.first)
        reverter.appendReversion(at: \.second)
        reverter.appendReversion(at: \.table)
        reverter.appendReversion(at: \.cells)
        reverter.appendReversion(at: \.rows)
    }

    /// A location: `first`, `second`, a key of `table`, or an element of `cells` or of `rows`
    /// by id.
    enum Location: Hashable {
        case first, second, key(Int), cell(Int), row(Int)
    }

    /// What each location holds (`nil`: absent).
    var locations: [Location: Int] {
        var result: [Location: Int] = [.first: first, .second: second]
        for (key, value) in table { result[.key(key)] = value }
        for cell in cells { result[.cell(cell.id)] = cell.value }
        for row in rows { result[.row(row.id)] = row.value }
        return result
    }

    /// Writes `value` (`nil`: removes) at `location`; a new element goes at `position` (clamped).
    mutating func write(_ value: Int?, at location: Location, position: Int) {
        switch location {
        case .first: first = value ?? 0
        case .second: second = value ?? 0
        case let .key(key): table[key] = value
        case let .cell(id): Self.write(value, id: id, in: &cells, position: position)
        case let .row(id): Self.write(value, id: id, in: &rows, position: position)
        }
    }

    /// One write to `elements`: the element's value set, the element removed, or one inserted.
    private static func write<Elements: RandomAccessCollection & MutableCollection & RangeReplaceableCollection<Cell>>(
        _ value: Int?, id: Int, in elements: inout Elements, position: Int
    ) where Elements.Index == Int {
        if let index = elements.firstIndex(where: { $0.id == id }) {
            if let value { elements[index].value = value } else { elements.remove(at: index) }
        } else if let value {
            elements.insert(Cell(id: id, value: value), at: min(max(position, 0), elements.count))
        }
    }
}

/// Issue 24's reference rule, checked against the controller in random runs: every step keeps
/// the locations it wrote with their values before and after; undo reverts a location only if
/// it still holds what the step left (else a conflict), and leaves every other location as it
/// is; redo re-applies exactly what undo reverted. Other writers' changes (absorbed, or set
/// with `setWithoutTracking`) are interleaved with recording, undo and redo (skipping and
/// refusing), dropping a refused step, scopes pushed, popped and abandoned, and saving and
/// reloading the history.
///
/// The extended runs add tags with multi-step undo and redo to them, moves through the tree
/// (as far back as the oldest version, and by a count where no branch is in the way), and,
/// in a third of them, a history limit (those runs push no scope: a limit folds an inner
/// scope's oldest steps into its start, which this reference does not model; the reducer's
/// suite runs the limit with scopes). A multi-step move takes each step back in turn under
/// the same rule, so the reference takes as many single steps.
///
/// Each seed runs twice (issue 39): its recorded changes made in transactions, and made then
/// `append`ed, which compares. Both runs must keep every location the reference keeps, and see
/// the same present, undo and redo counts and conflicts after each operation and the same
/// archive at each save. Only the extended runs write the `TreeArray` (`rows`; the others
/// draw what they drew before it was added), and a real share of their transactions must be
/// journaled; the others' transactions lend the empty tree and compare the rest.
///
/// Not covered here: grouping (the reducer's suite groups among other writers), and the order
/// of identified elements (the rule is about locations, which an element's position is not).
@Suite("Reliability: other writers, against the per-location reference")
struct OtherWritersReliabilityTests {

    typealias Location = Cells.Location
    /// A step of the reference: per location, its value before and after (`nil`: absent).
    typealias Step = [Location: (old: Int?, new: Int?)]

    /// The reference: the value's locations and a stack of scopes of undo and redo steps.
    struct Reference {
        var value: [Location: Int]
        var scopes: [Scope] = [Scope()]

        /// A scope's undo and redo steps, and how many of its steps are on branches off the
        /// path from its start to the present (redo steps dropped by a new step).
        struct Scope {
            var undo: [Step] = []
            var redo: [Step] = []
            var offPath = 0

            /// Records `step` after the present: the redo steps become a branch.
            mutating func push(_ step: Step) {
                undo.append(step)
                offPath += redo.count
                redo = []
            }

            /// The history limit: off-path steps go first, then the oldest on the path.
            mutating func trim(to limit: Int?) {
                guard let limit else { return }
                // Called right after a new step, when there are no redo steps (they would go
                // with the branches, oldest first, an order this reference does not track).
                precondition(redo.isEmpty, "trim with redo steps")
                var excess = undo.count + offPath - limit
                let offPathDropped = min(max(excess, 0), offPath)
                offPath -= offPathDropped
                excess -= offPathDropped
                if excess > 0 { undo.removeFirst(min(excess, undo.count)) }
            }
        }

        /// Reverts `step` (`forward`: re-applies it) where each location holds what it left;
        /// returns the conflicts and what was done.
        func applying(_ step: Step, forward: Bool) -> (value: [Location: Int], conflicts: Int, done: Step) {
            var value = value
            var conflicts = 0
            var done: Step = [:]
            for (location, change) in step {
                let (expected, written) = forward ? (change.old, change.new) : (change.new, change.old)
                if value[location] == expected {
                    value[location] = written
                    done[location] = change
                } else {
                    conflicts += 1
                }
            }
            return (value, conflicts, done)
        }

        static func difference(from old: [Location: Int], to new: [Location: Int]) -> Step {
            var step: Step = [:]
            for location in Set(old.keys).union(new.keys) where old[location] != new[location] {
                step[location] = (old[location], new[location])
            }
            return step
        }
    }

    /// Seeds that once failed: another writer re-created an element an undo brings back, the
    /// count unchanged, and the strict check let the id appear twice.
    @Test("Seeds that once made an id appear twice keep every location the reference keeps", arguments: [401, 439, 836, 870, 1368, 1975] as [UInt64])
    func knownSeeds(seed: UInt64) throws {
        try inBothRecordingModes(seed: seed, extended: false)
    }

    @Test("Random runs with other writers keep every location the reference keeps, journaled or compared", arguments: RandomizedTesting.seeds(defaultIterations: 40))
    func randomRuns(seed: UInt64) throws {
        try inBothRecordingModes(seed: seed, extended: false)
    }

    @Test("Random runs with other writers, tags, moves and a history limit keep every location the reference keeps, journaled or compared", arguments: RandomizedTesting.seeds(defaultIterations: 40))
    func extendedRandomRuns(seed: UInt64) throws {
        try inBothRecordingModes(seed: seed, extended: true)
    }

    /// Runs `seed` with its changes recorded in transactions and appended, and requires the
    /// same observations of both.
    func inBothRecordingModes(seed: UInt64, extended: Bool) throws {
        var (journaled, transactions) = (0, 0)
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "OtherWritersReliability")
        try expectSameInBothRecordingModes("seed \(seed) (\(replay))") { recordsWrites in
            try randomRuns(seed: seed, extended: extended, recordsWrites: recordsWrites, journaled: &journaled, transactions: &transactions)
        }
        if extended {
            if RandomizedTesting.isVerbose { print("OtherWritersReliabilityTests: seed \(seed), \(journaled) of \(transactions) transactions journaled") }
            // About two in five changes write a row, once (the least of the CI seeds: a quarter).
            #expect(journaled * 10 > transactions, "seed \(seed): \(journaled) of \(transactions) transactions journaled; \(replay)")
        }
    }

    /// `extended` adds the operations, the limit and the tree; without it, a seed draws exactly
    /// what it drew before they were added, so the known seeds above still replay their runs.
    /// `recordsWrites`: changes are recorded in transactions, else appended. Returns what the
    /// run saw after each operation, and adds its journaled steps and transactions.
    func randomRuns(
        seed: UInt64, extended: Bool, recordsWrites: Bool, journaled: inout Int, transactions: inout Int
    ) throws -> [ControllerObservation] {
        var random = SeededGenerator(seed: seed)
        var value = Cells()
        let limit: Int? = extended && seed % 3 == 0 ? Int(seed / 3 % 6) + 1 : nil
        // A clock that never moves: the two modes' archives keep the same times.
        var controller = ValueVersioningController(value, historyLimit: limit, clock: TestClock())
        // The controllers a reload replaced add theirs as they go.
        defer { if recordsWrites { journaled += controller.journaledStepCount } }
        var observations: [ControllerObservation] = []
        var reference = Reference(value: value.locations)
        let replay = RandomizedTesting.replayCommand(seed: seed, filter: "OtherWritersReliability")
            + (limit.map { " (history limit \($0))" } ?? "") + (recordsWrites ? ", journaled" : ", compared")
        var log: [String] = []

        func randomChange(_ value: inout Cells) {
            // Each location once: a cell removed and put back elsewhere would be a move, which
            // the reference, being about locations, does not see.
            var locations: [Location] = [.first, .second, .key(Int.random(in: 0..<4, using: &random)), .cell(Int.random(in: 0..<6, using: &random))]
            if extended { locations.append(.row(Int.random(in: 0..<6, using: &random))) }
            for location in locations.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) {
                let newValue: Int? = Int.random(in: 0..<4, using: &random) == 0 ? nil : Int.random(in: 0..<5, using: &random)
                value.write(newValue, at: location, position: Int.random(in: 0...6, using: &random))
            }
        }

        for _ in 0..<RandomizedTesting.operationsPerSequence {
            let top = reference.scopes.count - 1
            switch Int.random(in: 0..<(extended ? 125 : 100), using: &random) {
            case 0..<30:
                log.append("record")
                let next: Cells
                if recordsWrites {
                    transactions += 1
                    next = controller.setWithTransaction(randomChange)
                } else {
                    var changed = controller.currentVersion
                    randomChange(&changed)
                    controller.append(changed)
                    next = changed
                }
                let step = Reference.difference(from: reference.value, to: next.locations)
                if !step.isEmpty {
                    reference.scopes[top].push(step)
                    reference.scopes[top].trim(to: limit)
                }
                reference.value = next.locations
            case 30..<45:
                let viaSet = Bool.random(using: &random)
                log.append(viaSet ? "setWithoutTracking" : "absorb")
                var next = controller.currentVersion
                randomChange(&next)
                if viaSet { controller.setWithoutTracking(next) } else { controller.absorb(next) }
                reference.value = next.locations
            case 45..<65:
                let refusing = Int.random(in: 0..<4, using: &random) == 0
                log.append(refusing ? "undo refusing" : "undo")
                guard let step = reference.scopes[top].undo.last else {
                    try controller.undo()
                    #expect(!controller.hasUndo, "\(replay) \(log)")
                    continue
                }
                let result = reference.applying(step, forward: false)
                if refusing, result.conflicts > 0 {
                    let before = controller.currentVersion
                    #expect(throws: HistoryError.self, "\(replay) \(log)") { try controller.undo(onConflict: .refuse) }
                    #expect(controller.currentVersion.locations == before.locations, "\(replay) \(log)")
                    if Bool.random(using: &random) {
                        log.append("dropNextUndo, record")
                        controller.dropNextUndo()
                        reference.scopes[top].undo.removeLast()
                        // A new step: the redo steps of the dropped one no longer follow.
                        var next = controller.currentVersion
                        next.first += 1
                        if recordsWrites {
                            controller.setWithTransaction { $0.first += 1 }
                        } else {
                            controller.append(next)
                        }
                        reference.scopes[top].push([.first: (old: reference.value[.first], new: Optional(next.first))])
                        reference.scopes[top].trim(to: limit)
                        reference.value = next.locations
                    }
                    observations.append(try ControllerObservation(controller))
                    continue
                }
                try controller.undo(onConflict: refusing ? .refuse : nil)
                #expect(controller.lastConflicts.count == result.conflicts, "\(replay) \(log)")
                reference.scopes[top].undo.removeLast()
                reference.scopes[top].redo.append(result.conflicts > 0 ? result.done : step)
                reference.value = result.value
            case 65..<80:
                log.append("redo")
                guard let step = reference.scopes[top].redo.last else {
                    try controller.redo()
                    #expect(!controller.hasRedo, "\(replay) \(log)")
                    continue
                }
                let result = reference.applying(step, forward: true)
                try controller.redo()
                #expect(controller.lastConflicts.count == result.conflicts, "\(replay) \(log)")
                reference.scopes[top].redo.removeLast()
                reference.scopes[top].undo.append(result.conflicts > 0 ? result.done : step)
                reference.value = result.value
            case 80..<86 where limit == nil:
                log.append("push")
                controller.pushNewScope()
                reference.scopes.append(Reference.Scope())
            case 86..<92 where top > 0:
                let abandoning = Bool.random(using: &random)
                log.append(abandoning ? "abandon" : "pop")
                var start = reference
                for step in reference.scopes[top].undo.reversed() {
                    start.value = start.applying(step, forward: false).value
                }
                start.scopes.removeLast()
                if abandoning {
                    try controller.undoAndPopCurrentScope()
                    reference = start
                } else {
                    try controller.popCurrentScope()
                    let squashed = Reference.difference(from: start.value, to: reference.value)
                    start.value = reference.value
                    if !squashed.isEmpty {
                        start.scopes[top - 1].push(squashed)
                    } else if controller.undoCount == start.scopes[top - 1].undo.count + 1 {
                        // The scope only moved elements (seed 1432 of the extended runs: an
                        // element taken back to its place among the elements there now): a
                        // step for the controller, none for locations. Undoing and redoing it
                        // must then change no location, which every later check holds it to.
                        start.scopes[top - 1].push([:])
                    }
                    reference = start
                }
            case 92..<100:
                log.append("save and reload")
                observations.append(try ControllerObservation(controller, archive: true))
                let data = try JSONEncoder().encode(controller.archive)
                let archive = try JSONDecoder().decode(HistoryArchive<Cells>.self, from: data)
                let loaded = ValueVersioningController(controller.currentVersion, historyLimit: limit, clock: TestClock())
                try loaded.restoreHistory(from: archive)
                if recordsWrites { journaled += controller.journaledStepCount }
                controller = loaded
            case 100..<106:
                let tag = ["a", "b", "c"].randomElement(using: &random)!
                log.append("tag \(tag)")
                controller.tag(tag)
            case 106..<118:
                // Back or forward several steps: to a tag, by a count, or through the tree.
                let tag = ["a", "b", "c"].randomElement(using: &random)!
                let scope = reference.scopes[top]
                var undoing: Bool
                var count: Int
                var move: (ValueVersioningController<Cells>) throws -> Void
                switch (Int.random(in: 0..<4, using: &random), controller.location(of: tag)) {
                case let (0, .behind(steps)):
                    (undoing, count, move) = (true, steps, { _ = try $0.undo(to: .tag(HistoryTag(tag))) })
                case let (1, .ahead(steps)):
                    (undoing, count, move) = (false, steps, { _ = try $0.redo(to: .tag(HistoryTag(tag))) })
                case (2, _):
                    count = Int.random(in: 0...scope.undo.count, using: &random)
                    (undoing, move) = (true, { _ = try $0.undo(to: .steps(count)) })
                case (3, _) where scope.offPath == 0 && scope.redo.isEmpty:
                    // With no branch, the versions in the order they were made are the path.
                    count = Int.random(in: 0...scope.undo.count, using: &random)
                    let destination: HistoryDestination = count == scope.undo.count && Bool.random(using: &random) ? .oldest : .earlier(count)
                    (undoing, move) = (true, { _ = try $0.move(to: destination) })
                default:
                    continue
                }
                log.append("\(undoing ? "undo" : "redo") \(count) steps")
                var conflicts = 0
                for _ in 0..<count {
                    let step = undoing ? reference.scopes[top].undo.removeLast() : reference.scopes[top].redo.removeLast()
                    let result = reference.applying(step, forward: !undoing)
                    conflicts += result.conflicts
                    if undoing {
                        reference.scopes[top].redo.append(result.conflicts > 0 ? result.done : step)
                    } else {
                        reference.scopes[top].undo.append(result.conflicts > 0 ? result.done : step)
                    }
                    reference.value = result.value
                }
                try move(controller)
                #expect(controller.lastConflicts.count == conflicts, "\(replay) \(log)")
            case 118..<125:
                log.append("undo the scope")
                let scope = reference.scopes[top]
                var conflicts = 0
                _ = try controller.undoCurrentScope()
                for step in scope.undo.reversed() {
                    let result = reference.applying(step, forward: false)
                    reference.scopes[top].undo.removeLast()
                    reference.scopes[top].redo.append(result.conflicts > 0 ? result.done : step)
                    reference.value = result.value
                    conflicts += result.conflicts
                }
                #expect(controller.lastConflicts.count == conflicts, "\(replay) \(log)")
            default:
                continue
            }
            value = controller.currentVersion
            try #require(Set(value.cells.map(\.id)).count == value.cells.count, "ids repeat: \(replay) \(log)")
            try #require(value.locations == reference.value, "\(replay) \(log)")
            #expect(controller.undoCount == reference.scopes[reference.scopes.count - 1].undo.count, "\(replay) \(log)")
            #expect(controller.redoCount == reference.scopes[reference.scopes.count - 1].redo.count, "\(replay) \(log)")
            #expect(controller.scopeLevel == reference.scopes.count - 1, "\(replay) \(log)")
            observations.append(try ControllerObservation(controller))
        }
        observations.append(try ControllerObservation(controller, archive: true))
        return observations
    }
}
