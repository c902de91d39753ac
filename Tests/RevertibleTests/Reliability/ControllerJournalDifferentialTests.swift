import Foundation
@testable import Revertible
import Testing
import TestSupport

/// Issue 39: a controller's synchronous transaction on a `Versionable` value records the
/// value's `TreeArray`s as its body writes them (the journal), against the same transactions
/// recorded by comparing versions. Two controllers take the same seeded random operations;
/// after every operation both must hold the same current version, the same undo and redo and
/// the same error, and at every save and at the end save the same archive, byte for byte.
///
/// ```sh
/// RANDOMIZED_ITERATIONS=2000 swift test --filter ControllerJournalDifferentialTests
/// ```
@Suite("Controller journal: a transaction recorded as its trees write gives what comparing gives")
struct ControllerJournalDifferentialTests {

    @Test("Random transactions journaled and compared keep the same versions, moves and archive")
    func randomRuns() {
        var (journaled, transactions, withOtherProperties) = (0, 0, 0)
        let report = firstFailingSequence(suite: "ControllerJournalDifferentialTests", defaultIterations: 150) { seed in
            var random = SeededGenerator(seed: seed)
            let operations = (0..<RandomizedTesting.operationsPerSequence).map { _ in JournalOperation.random(using: &random) }
            transactions += operations.filter(\.isTransaction).count
            return ("", operations, { operations in
                let (failure, count, mixed) = firstDifference(running: operations)
                journaled += count
                withOtherProperties += mixed
                return failure
            })
        }
        if let report { Issue.record("\(report)") }
        let share = "\(journaled) of \(transactions) transactions journaled, \(withOtherProperties) writing another property too"
        if RandomizedTesting.isVerbose { print("ControllerJournalDifferentialTests: \(share)") }
        #expect(journaled * 5 > transactions * 3, "\(share)")
        // Transactions that write the tree and another property are journaled too.
        #expect(withOtherProperties * 20 > journaled, "\(share)")
    }

    @Test("A transaction's edit is written in place and journaled")
    func writesInPlace() throws {
        let rows = TreeArray((0..<500).map { JournalRow(id: $0, title: "row \($0)") })
        let controller = VersioningController(JournalLedger(rows: rows))
        controller.setWithTransaction { $0.rows[6].title = "six" }
        #expect(controller.journaledStepCount == 1)
        // `rows` shared the first version's storage; the history's copy holds the only
        // reference now, and lends it: a write copying the tree would make a new root.
        let root = ObjectIdentifier(controller.currentVersion.rows.root)
        controller.setWithTransaction { $0.rows[7].title = "seven" }
        #expect(ObjectIdentifier(controller.currentVersion.rows.root) == root, "the history's copy forced a copy of the root")
        controller.setWithTransaction { $0.rows.insert(JournalRow(id: 1_000, title: "new"), at: 3) }
        controller.setWithTransaction { $0.rows.remove(at: 10) }
        #expect(controller.journaledStepCount == 4 && controller.undoCount == 4)
        let edited = controller.currentVersion
        #expect(edited.rows[8].title == "seven" && edited.rows[3].id == 1_000 && edited.rows.count == 500)
        var value = try controller.undo(to: .steps(4))
        #expect(value.rows.elementsEqual(rows))
        value = try controller.redo(to: .steps(4))
        #expect(value == edited)
    }

    @Test("A transaction that throws after writing a lent tree records nothing and leaves the version as it was")
    func throwingTransaction() throws {
        let rows = TreeArray((0..<300).map { JournalRow(id: $0, title: "row \($0)") })
        let controller = VersioningController(JournalLedger(rows: rows))
        controller.setWithTransaction { $0.rows[1].title = "one" }
        let before = controller.currentVersion
        for write in [JournalWrite.rename(at: 5, "x"), .insert(id: 900, at: 2), .remove(at: 4), .twoRenames(at: 3)] {
            #expect(throws: JournalRefusal.self) {
                try controller.setWithTransaction { (ledger: inout JournalLedger) throws(JournalRefusal) in
                    write.apply(to: &ledger)
                    throw JournalRefusal()
                }
            }
            #expect(controller.currentVersion == before && controller.undoCount == 1 && controller.redoCount == 0)
        }
        controller.setWithTransaction { $0.rows[2].title = "two" }
        #expect(controller.journaledStepCount == 2)
        let value = try controller.undo(to: .steps(2))
        #expect(value.rows.elementsEqual(rows))
    }

    @Test("A transaction writing the tree and other properties is journaled and saves what comparing saves", arguments: [
        JournalWrite.renameAndName(at: 4, "x"), .removeSelectAndName(at: 6, "y"), .renameAndFocus(at: 4, 3),
    ])
    func treeAndRest(write: JournalWrite) throws {
        let start = JournalLedger(rows: TreeArray((0..<300).map { JournalRow(id: $0, title: "row \($0)") }))
        let journaled = VersioningController(start, clock: TestClock())
        let compared = VersioningController(start, clock: TestClock())
        compared.recordsWrites = false
        for controller in [journaled, compared] {
            controller.setWithTransaction { $0.rows[1].title = "one" }
        }
        let root = ObjectIdentifier(journaled.currentVersion.rows.root)
        for controller in [journaled, compared] {
            controller.setWithTransaction { write.apply(to: &$0) }
        }
        #expect(journaled.journaledStepCount == 2)
        #expect(ObjectIdentifier(journaled.currentVersion.rows.root) == root, "the history's copy forced a copy of the root")
        #expect(journaled.currentVersion == compared.currentVersion)
        #expect(try archive(of: journaled) == archive(of: compared))
        for controller in [journaled, compared] {
            _ = try controller.undo()
        }
        #expect(journaled.currentVersion == compared.currentVersion && journaled.currentVersion.name.isEmpty)
        #expect(try archive(of: journaled) == archive(of: compared))
    }

    /// A registration that reads the whole value would see the lent tree in its new version
    /// where comparing sees the old one: the walk cannot answer, and compares instead.
    @Test("A value registered whole beside its tree is compared, and saves what comparing saves")
    func wholeValueRegistration() throws {
        let start = WholeLedger(rows: TreeArray((0..<50).map { JournalRow(id: $0, title: "row \($0)") }))
        let journaled = VersioningController(start, clock: TestClock())
        let compared = VersioningController(start, clock: TestClock())
        compared.recordsWrites = false
        for controller in [journaled, compared] {
            controller.setWithTransaction { $0.count += 1 }
            controller.setWithTransaction {
                $0.rows[4].title = "four"
                $0.count += 1
            }
        }
        #expect(journaled.journaledStepCount == 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(journaled.archive) == encoder.encode(compared.archive))
        let undone = try [journaled, compared].map { try $0.undo() }
        #expect(undone[0] == undone[1] && undone[0].rows[4].title == "row 4")
    }
}

/// A ledger that registers itself whole after its tree (as a type might to cover a property
/// it does not list): every change is stored whole too.
struct WholeLedger: Versionable, Equatable, Sendable, Codable {
    var rows: TreeArray<JournalRow>
    var count = 0

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.rows)
        reverter.appendOverwriteReversion(at: \.self)
    }
}

// MARK: - The run

/// Runs `operations` on a journaled and a comparing controller; the first place they differ,
/// how many transactions the journal recorded, and how many of those wrote another property
/// than the tree too.
private func firstDifference(running operations: [JournalOperation]) -> (ModelFailure?, Int, Int) {
    let start = JournalLedger(rows: TreeArray((0..<40).map { JournalRow(id: -1 - $0, title: "start \($0)") }))
    // A clock each that never moves: the archives keep the steps' times.
    var journaled = VersioningController(start, clock: TestClock())
    var compared = VersioningController(start, clock: TestClock())
    compared.recordsWrites = false
    // Journaled steps of the controllers a reload replaced.
    var replacedCount = 0
    var withOtherProperties = 0
    for (index, operation) in operations.enumerated() {
        func failure(_ message: String) -> (ModelFailure?, Int, Int) {
            (ModelFailure(index: index, message: "after \(operation): \(message)", kind: message), replacedCount + journaled.journaledStepCount, withOtherProperties)
        }
        if case .saveAndLoad = operation {
            do {
                let (left, right) = (try archive(of: journaled), try archive(of: compared))
                guard left == right else { return failure("the saved archives differ") }
                replacedCount += journaled.journaledStepCount
                journaled = try reopened(journaled, from: left, recordsWrites: true)
                compared = try reopened(compared, from: right, recordsWrites: false)
            } catch {
                return failure("save and load failed: \(error)")
            }
            continue
        }
        let journaledBefore = journaled.journaledStepCount
        let outcomes = (operation.run(on: journaled), operation.run(on: compared))
        if case let .transaction(write) = operation, write.writesTreeAndAnotherProperty {
            withOtherProperties += journaled.journaledStepCount - journaledBefore
        }
        guard outcomes.0 == outcomes.1 else { return failure("outcomes differ: \(outcomes.0 ?? "none") and \(outcomes.1 ?? "none")") }
        guard journaled.currentVersion == compared.currentVersion else { return failure("the current versions differ") }
        guard journaled.undoCount == compared.undoCount, journaled.redoCount == compared.redoCount else {
            return failure("counts differ: \(journaled.undoCount)/\(journaled.redoCount) and \(compared.undoCount)/\(compared.redoCount)")
        }
        guard journaled.error == compared.error else { return failure("errors differ") }
    }
    do {
        guard try archive(of: journaled) == archive(of: compared) else {
            return (ModelFailure(index: operations.count - 1, message: "the final archives differ", kind: "archive"), replacedCount + journaled.journaledStepCount, withOtherProperties)
        }
    } catch {
        return (ModelFailure(index: operations.count - 1, message: "saving failed: \(error)", kind: "save"), replacedCount + journaled.journaledStepCount, withOtherProperties)
    }
    return (nil, replacedCount + journaled.journaledStepCount, withOtherProperties)
}

private func archive(of controller: VersioningController<JournalLedger, JournalLedger, HistoryError>) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(controller.archive)
}

private func reopened(
    _ controller: VersioningController<JournalLedger, JournalLedger, HistoryError>, from data: Data, recordsWrites: Bool
) throws -> VersioningController<JournalLedger, JournalLedger, HistoryError> {
    let loaded = VersioningController(controller.currentVersion, clock: TestClock())
    loaded.historyLimit = controller.historyLimit
    try loaded.restoreHistory(from: JSONDecoder().decode(HistoryArchive<JournalLedger>.self, from: data))
    loaded.recordsWrites = recordsWrites
    return loaded
}

// MARK: - The value and the operations

struct JournalRow: Identifiable, Versionable, Equatable, Sendable, Codable {
    let id: Int
    var title: String
    /// Ignored: a change only here is no step.
    var hover = 0

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.title)
        reverter.ignore(\.hover)
    }
}

struct JournalLedger: Versionable, Equatable, Sendable, Codable {
    /// Registered before the tree: a journaled step's nodes keep this order.
    var selection = 0
    var rows: TreeArray<JournalRow>
    var name = ""
    /// Ignored: a change only here is no step.
    var focus = 0

    func addReversions(into reverter: inout some Reverter<Self>) {
        reverter.appendReversion(at: \.selection)
        reverter.appendReversion(at: \.rows)
        reverter.appendReversion(at: \.name)
        reverter.ignore(\.focus)
    }
}

struct JournalRefusal: Error, Equatable {}

/// One write a transaction's body makes; positions are taken modulo the count.
enum JournalWrite: Sendable, CustomStringConvertible {
    case rename(at: Int, String)
    case insert(id: Int, at: Int)
    case remove(at: Int)
    /// Two writes to the tree: the journal cannot vouch.
    case twoRenames(at: Int)
    case move(from: Int, to: Int)
    /// The tree and another property.
    case renameAndName(at: Int, String)
    /// The tree and the properties registered before and after it.
    case removeSelectAndName(at: Int, String)
    /// The tree and an ignored property.
    case renameAndFocus(at: Int, Int)
    /// Two writes to the tree and another property: the journal cannot vouch.
    case twoRenamesAndSelect(at: Int)
    case name(String)
    case hover(at: Int, Int)
    /// A row replaced by one of another id.
    case changeID(at: Int, to: Int)
    case replaceAll
    /// A copy of the tree written and dropped.
    case renameCopyAndDiscard(at: Int)
    /// A copy of the tree written, then assigned.
    case renameCopyAndKeep(at: Int)

    var description: String {
        switch self {
        case let .rename(at, title): "rename(\(at), \(title.debugDescription))"
        case let .insert(id, at): "insert(\(id), at: \(at))"
        case let .remove(at): "remove(\(at))"
        case let .twoRenames(at): "twoRenames(\(at))"
        case let .move(from, to): "move(\(from) → \(to))"
        case let .renameAndName(at, name): "renameAndName(\(at), \(name.debugDescription))"
        case let .removeSelectAndName(at, name): "removeSelectAndName(\(at), \(name.debugDescription))"
        case let .renameAndFocus(at, focus): "renameAndFocus(\(at), \(focus))"
        case let .twoRenamesAndSelect(at): "twoRenamesAndSelect(\(at))"
        case let .name(name): "name(\(name.debugDescription))"
        case let .hover(at, hover): "hover(\(at), \(hover))"
        case let .changeID(at, id): "changeID(\(at), \(id))"
        case .replaceAll: "replaceAll"
        case let .renameCopyAndDiscard(at): "renameCopyAndDiscard(\(at))"
        case let .renameCopyAndKeep(at): "renameCopyAndKeep(\(at))"
        }
    }

    /// Whether the write changes the tree and another property of the ledger.
    var writesTreeAndAnotherProperty: Bool {
        switch self {
        case .renameAndName, .removeSelectAndName, .renameAndFocus, .twoRenamesAndSelect: true
        default: false
        }
    }

    func apply(to ledger: inout JournalLedger) {
        let count = ledger.rows.count
        switch self {
        case let .rename(at, title): if count > 0 { ledger.rows[at % count].title = title }
        case let .insert(id, at): ledger.rows.insert(JournalRow(id: id, title: "new \(id)"), at: at % (count + 1))
        case let .remove(at): if count > 0 { ledger.rows.remove(at: at % count) }
        case let .twoRenames(at):
            if count > 1 {
                ledger.rows[at % count].title += "!"
                ledger.rows[(at + 1) % count].title += "?"
            }
        case let .move(from, to):
            if count > 0 { ledger.rows.insert(ledger.rows.remove(at: from % count), at: to % count) }
        case let .renameAndName(at, name):
            if count > 0 { ledger.rows[at % count].title = name }
            ledger.name = name
        case let .removeSelectAndName(at, name):
            if count > 0 { ledger.rows.remove(at: at % count) }
            ledger.selection = at
            ledger.name = name
        case let .renameAndFocus(at, focus):
            if count > 0 { ledger.rows[at % count].title += "+" }
            ledger.focus = focus
        case let .twoRenamesAndSelect(at):
            if count > 1 {
                ledger.rows[at % count].title += "!"
                ledger.rows[(at + 1) % count].title += "?"
            }
            ledger.selection = at
        case let .name(name): ledger.name = name
        case let .hover(at, hover): if count > 0 { ledger.rows[at % count].hover = hover }
        case let .changeID(at, id): if count > 0 { ledger.rows[at % count] = JournalRow(id: id, title: "other") }
        case .replaceAll: ledger.rows = TreeArray(ledger.rows.reversed())
        case let .renameCopyAndDiscard(at):
            var copy = ledger.rows
            if count > 0 { copy[at % count].title = "copy" }
        case let .renameCopyAndKeep(at):
            var copy = ledger.rows
            if count > 0 { copy[at % count].title = "copy" }
            ledger.rows = copy
        }
    }
}

enum JournalOperation: Sendable, CustomStringConvertible {
    case transaction(JournalWrite)
    /// A transaction that throws after its write.
    case refusedTransaction(JournalWrite)
    /// The version written by `append`, which compares.
    case append(JournalWrite)
    /// A write no step records (absorbed).
    case withoutTracking(JournalWrite)
    case undo(Int)
    case redo(Int)
    case pushScope
    case popScope
    case undoAndPopScope
    case tag(String)
    case undoToTag(String)
    case setLimit(Int?)
    case saveAndLoad

    var isTransaction: Bool {
        if case .transaction = self { true } else { false }
    }

    var description: String {
        switch self {
        case let .transaction(write): "transaction(\(write))"
        case let .refusedTransaction(write): "refusedTransaction(\(write))"
        case let .append(write): "append(\(write))"
        case let .withoutTracking(write): "withoutTracking(\(write))"
        case let .undo(steps): "undo(\(steps))"
        case let .redo(steps): "redo(\(steps))"
        case .pushScope: "pushScope"
        case .popScope: "popScope"
        case .undoAndPopScope: "undoAndPopScope"
        case let .tag(tag): "tag(\(tag))"
        case let .undoToTag(tag): "undoToTag(\(tag))"
        case let .setLimit(limit): "setLimit(\(limit.map(String.init) ?? "none"))"
        case .saveAndLoad: "saveAndLoad"
        }
    }

    /// What the operation reported: a thrown error's description, or nothing.
    func run(on controller: VersioningController<JournalLedger, JournalLedger, HistoryError>) -> String? {
        do {
            switch self {
            case let .transaction(write):
                controller.setWithTransaction { write.apply(to: &$0) }
            case let .refusedTransaction(write):
                try controller.setWithTransaction { (ledger: inout JournalLedger) throws(JournalRefusal) in
                    write.apply(to: &ledger)
                    throw JournalRefusal()
                }
            case let .append(write):
                var value = controller.currentVersion
                write.apply(to: &value)
                controller.append(value)
            case let .withoutTracking(write):
                var value = controller.currentVersion
                write.apply(to: &value)
                controller.setWithoutTracking(value)
            case let .undo(steps): _ = try controller.undo(to: .steps(steps))
            case let .redo(steps): _ = try controller.redo(to: .steps(steps))
            case .pushScope: controller.pushNewScope()
            case .popScope: try controller.popCurrentScope()
            case .undoAndPopScope: _ = try controller.undoAndPopCurrentScope()
            case let .tag(tag): controller.tag(tag)
            case let .undoToTag(tag): _ = try controller.undo(to: .tag(tag))
            case let .setLimit(limit): controller.historyLimit = limit
            case .saveAndLoad: break
            }
        } catch {
            return "\(error)"
        }
        return nil
    }

    static func random(using random: inout SeededGenerator) -> JournalOperation {
        func position() -> Int { Int.random(in: 0..<64, using: &random) }
        func word() -> String { ["milk", "eggs", "tea", "é", "e\u{301}", ""].randomElement(using: &random)! }
        func write() -> JournalWrite {
            switch Int.random(in: 0..<44, using: &random) {
            case 0..<12: .rename(at: position(), word())
            case 12..<17: .insert(id: Int.random(in: 1...1_000_000, using: &random), at: position())
            case 17..<22: .remove(at: position())
            case 22, 23: .twoRenames(at: position())
            case 24, 25: .move(from: position(), to: position())
            case 26, 27: .renameAndName(at: position(), word())
            case 28, 29: .name(word())
            case 30, 31: .hover(at: position(), Int.random(in: 1...9, using: &random))
            case 32: .changeID(at: position(), to: Int.random(in: 1...1_000_000, using: &random))
            case 33: .replaceAll
            case 34: .renameCopyAndDiscard(at: position())
            case 35: .renameCopyAndKeep(at: position())
            case 40, 41: .removeSelectAndName(at: position(), word())
            case 42: .renameAndFocus(at: position(), Int.random(in: 1...9, using: &random))
            case 43: .twoRenamesAndSelect(at: position())
            default: .rename(at: position(), word())
            }
        }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<50: return .transaction(write())
        case 50..<53: return .refusedTransaction(write())
        case 53..<58: return .append(write())
        case 58..<61: return .withoutTracking(write())
        case 61..<71: return .undo(Int.random(in: 1...3, using: &random))
        case 71..<79: return .redo(Int.random(in: 1...3, using: &random))
        case 79..<83: return .pushScope
        case 83..<86: return .popScope
        case 86..<88: return .undoAndPopScope
        case 88..<91: return .tag(["t1", "t2"].randomElement(using: &random)!)
        case 91..<93: return .undoToTag(["t1", "t2"].randomElement(using: &random)!)
        case 93..<95: return .setLimit([nil, 2, 5, 20].randomElement(using: &random)!)
        default: return .saveAndLoad
        }
    }
}
