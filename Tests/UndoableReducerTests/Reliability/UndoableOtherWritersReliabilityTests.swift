import Foundation
import Revertible
import Testing
import TestSupport
@testable import UndoableReducer

/// Issue 24: the shelf of ``UndoableReliabilityTests`` shared with other writers. Two authors
/// record steps (ana owns the name, the note and the labels; ben the items, the drawer and
/// the counts),
/// something else writes any field without a step (an action the filter refuses, `absorb`),
/// and undo, redo, `undo(by:)`, `redo(by:)`, tags, scopes, groups, transactions, moves and the
/// limit are interleaved at random, with the state saved as JSON and reloaded now and then.
///
/// The reference, per step: the value before it and after it (so the fields it wrote and
/// their values). After a one-step undo, a field the step did not write is exactly as it was;
/// a field it wrote that still holds what the step left there is back to its value before the
/// step; a single-valued field someone else changed since is left as they set it. Redo is the
/// same rule the other way. `undo(by:)` and `redo(by:)` never change the other author's
/// fields, nor what only the other writers write. Nothing ever jams: a one-step undo or redo
/// with a step to take always moves, and no move fails for a wrong version or a conflict.
/// Each sequence runs twice: with the drawer's writes journaled (issue 39), and with every
/// step found by comparing versions.
///
/// ```sh
/// RANDOMIZED_ITERATIONS=2000 swift test --filter UndoableOtherWritersReliabilityTests
/// RANDOMIZED_SEED=123 swift test --filter UndoableOtherWritersReliabilityTests
/// ```
@Suite("Undoable reliability: other writers and two authors")
struct UndoableOtherWritersReliabilityTests {

    @Test("Random sequences with unrecorded writes and two authors never jam and revert only what each step wrote")
    func randomSequences() {
        var (journaled, stashes) = (0, 0)
        let report = firstFailingSequence(suite: "UndoableOtherWritersReliabilityTests", defaultIterations: 100) { seed in
            let run = OtherWritersRun(seed: seed)
            let operations = run.operations(count: RandomizedTesting.operationsPerSequence)
            stashes += operations.filter { if case let .action(action) = $0 { action.author != nil && action.base.writesDrawerOnly } else { false } }.count
            return ("history limit \(run.limit.map(String.init) ?? "none")", operations, { run.firstFailure(of: $0, journaled: &journaled) })
        }
        if let report { Issue.record("\(report)") }
        if RandomizedTesting.isVerbose { print("UndoableOtherWritersReliabilityTests: \(journaled) of \(stashes) recorded drawer actions journaled") }
        #expect(journaled * 4 > stashes, "\(journaled) of \(stashes) recorded drawer actions journaled")
    }

    /// Seed 362, shrunk: a group that came back to where it started, after the history was
    /// cleared, goes back to the oldest version; the run took that for a new step.
    @Test("A group back at its start makes no step (seed 362)")
    func seed362() {
        let operations: [OtherWritersOperation] = [
            .action(.init(author: 0, base: .name("é"))), .clearHistory,
            .action(.init(author: 0, base: .name("a"))), .action(.init(author: 0, base: .name("é"))),
        ]
        let failure = OtherWritersRun(seed: 362).firstFailure(of: operations)
        #expect(failure == nil, "\(failure?.message ?? "")")
    }

    @Test("The run's checks catch an undo that takes back another writer's change")
    func checksCanFail() {
        // Held to the rule by hand: a step that wrote the name, then someone else's note.
        var before = Shelf.State()
        before.note = "theirs"
        let step = (old: Shelf.State(), new: Shelf.State(name: "mine"))
        var wrong = before
        wrong.name = ""
        wrong.note = nil
        #expect(OtherWritersRun.brokenRule(undoing: step, before: before, after: wrong) == "note")
        var right = before
        right.name = ""
        #expect(OtherWritersRun.brokenRule(undoing: step, before: before, after: right) == nil)
    }
}

/// `Base`'s actions, each with who sent it: ana (`0`), ben (`1`), or, for `nil`, another
/// writer, whose actions the options do not record, so the history absorbs what they write.
struct Authored<Base: Reducer>: Reducer where Base.Action: CustomStringConvertible {
    struct Action: Sendable, CustomStringConvertible {
        var author: Int?
        var base: Base.Action

        var description: String { "\(author.map { ["ana", "ben"][$0] } ?? "other"): \(base)" }
    }

    let base: Base

    func reduce(into state: inout Base.State, action: Action) -> Effect<Action> {
        _ = base.reduce(into: &state, action: action.base)
        return .none
    }
}

typealias AuthoredShelf = Authored<Shelf>

enum OtherWritersOperation: CustomStringConvertible {
    case action(AuthoredShelf.Action)
    case transaction(author: Int, [Shelf.Action])
    case absorb(Shelf.Action)
    case undo(steps: Int)
    case redo(steps: Int)
    case undoBy(Int)
    case redoBy(Int)
    case tag(String)
    case undoToTag(String)
    case redoToTag(String)
    case pushScope
    case popScope
    case discardScope
    case clearHistory
    case moveEarlier(Int)
    case stopGrouping
    case saveAndReload
    /// Saves what changed to a store of encoded steps and opens the state over it again:
    /// from then on, each step is read from the store when an action crosses it.
    case saveToStoreAndReopen

    var description: String {
        switch self {
        case let .action(action): ".action(\(action))"
        case let .transaction(author, actions): ".transaction(\(["ana", "ben"][author]): \(actions))"
        case let .absorb(action): ".absorb(\(action))"
        case let .undoBy(author): ".undo(by: \(["ana", "ben"][author]))"
        case let .redoBy(author): ".redo(by: \(["ana", "ben"][author]))"
        case let .undo(steps): ".undo(\(steps))"
        case let .redo(steps): ".redo(\(steps))"
        case let .tag(tag): ".tag(\(tag))"
        case let .undoToTag(tag): ".undo(to: \(tag))"
        case let .redoToTag(tag): ".redo(to: \(tag))"
        case .pushScope: ".pushScope"
        case .popScope: ".popScope"
        case .discardScope: ".discardScope"
        case .clearHistory: ".clearHistory"
        case let .moveEarlier(count): ".moveEarlier(\(count))"
        case .stopGrouping: ".stopGrouping"
        case .saveAndReload: ".saveAndReload"
        case .saveToStoreAndReopen: ".saveToStoreAndReopen"
        }
    }
}

struct OtherWritersRun {
    let seed: UInt64
    let limit: Int?
    let initial: Shelf.State

    init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed ^ 0x5EED_0024)
        limit = seed % 3 == 0 ? Int.random(in: 1...8, using: &random) : nil
        initial = Shelf.State(
            items: (0..<Int.random(in: 0...4, using: &random)).map { Shelf.Item(id: -1 - $0, title: "start \($0)") },
            labels: ["a"], counts: ["x": 1], note: nil, name: "shelf"
        )
    }

    typealias Step = (old: Shelf.State, new: Shelf.State)

    /// The fields a step can write, read for comparing; the ignored hovers are left out. The
    /// single-valued ones are one location each; a collection is several.
    static let fields: [(name: String, isSingle: Bool, read: @Sendable (Shelf.State) -> AnyHashable)] = [
        ("items", false, { AnyHashable($0.items.map { [AnyHashable($0.id), AnyHashable($0.title), AnyHashable($0.done)] }) }),
        ("drawer", false, { AnyHashable($0.drawer.map { [AnyHashable($0.id), AnyHashable($0.title), AnyHashable($0.done)] }) }),
        ("labels", false, { AnyHashable($0.labels) }),
        ("counts", false, { AnyHashable($0.counts) }),
        ("note", true, { AnyHashable($0.note) }),
        ("name", true, { AnyHashable($0.name) }),
        ("panel.width", true, { AnyHashable($0.panel.width) }),
        ("cursor", true, { AnyHashable($0.cursor) }),
    ]

    /// Each author's fields: what their actions write.
    static let owned: [Set<String>] = [["name", "panel.width", "note", "labels"], ["items", "drawer", "counts"]]

    /// The first field where undoing `step` from `before` to `after` breaks the reference
    /// rule, or `nil`.
    static func brokenRule(undoing step: Step, before: Shelf.State, after: Shelf.State) -> String? {
        for field in fields {
            let (old, new, now, result) = (field.read(step.old), field.read(step.new), field.read(before), field.read(after))
            if old == new {
                if result != now { return field.name }
            } else if now == new {
                if result != old { return field.name }
            } else if field.isSingle, result != now {
                return field.name
            }
        }
        return nil
    }

    func operations(count: Int) -> [OtherWritersOperation] {
        var random = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 24)
        var nextID = 0
        let words = ["", "a", "b", "milk", "é", "long title here"]
        let tags = ["t1", "t2"]
        func position() -> Int { Int.random(in: 0..<6, using: &random) }
        func word() -> String { words.randomElement(using: &random)! }
        func action(of author: Int?) -> Shelf.Action {
            switch author {
            case 0?:
                switch Int.random(in: 0..<3, using: &random) {
                case 0: return .label(["a", "b", "c"].randomElement(using: &random)!)
                case 1: return .note(Bool.random(using: &random) ? nil : word())
                default: return .name(word())
                }
            case 1?:
                switch Int.random(in: 0..<9, using: &random) {
                case 6:
                    nextID += 1
                    return .stash(id: nextID, title: word(), at: position())
                case 7: return .renameStashed(at: position(), word())
                case 8: return .unstash(at: position())
                case 0:
                    nextID += 1
                    return .insert(id: nextID, title: word(), at: position())
                case 1: return .remove(at: position())
                case 2: return .move(from: position(), to: position())
                case 3: return .rename(at: position(), word())
                case 4: return .toggle(at: position())
                default: return .count(["x", "y"].randomElement(using: &random)!, Bool.random(using: &random) ? nil : position())
                }
            case nil:
                // Anything, the author's fields included: another writer.
                if Int.random(in: 0..<4, using: &random) == 0 { return .moveCursor(position()) }
                return action(of: Int.random(in: 0...1, using: &random))
            case _?:
                return .noop
            }
        }
        return (0..<count).map { _ in
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let author = Int.random(in: 0...1, using: &random)
                return .action(.init(author: author, base: action(of: author)))
            case 30..<38: return .action(.init(author: nil, base: action(of: nil)))
            case 38..<44: return .absorb(action(of: nil))
            case 44..<51: return .undo(steps: 1)
            case 51..<53: return .undo(steps: Int.random(in: 0...4, using: &random))
            case 53..<58: return .redo(steps: 1)
            case 58..<60: return .redo(steps: Int.random(in: 0...4, using: &random))
            case 60..<69: return .undoBy(Int.random(in: 0...1, using: &random))
            case 69..<74: return .redoBy(Int.random(in: 0...1, using: &random))
            case 74..<77: return .tag(tags.randomElement(using: &random)!)
            case 77..<79: return .undoToTag(tags.randomElement(using: &random)!)
            case 79..<81: return .redoToTag(tags.randomElement(using: &random)!)
            case 81..<85: return .pushScope
            case 85..<88: return .popScope
            case 88..<90: return .discardScope
            case 90..<91: return .clearHistory
            case 91..<93: return .moveEarlier(Int.random(in: -4...4, using: &random))
            case 93..<94: return .stopGrouping
            case 94..<95: return .saveAndReload
            case 95..<96: return .saveToStoreAndReopen
            default:
                let author = Int.random(in: 0...1, using: &random)
                return .transaction(author: author, (0..<Int.random(in: 1...3, using: &random)).map { _ in action(of: author) })
            }
        }
    }

    func firstFailure(of operations: [OtherWritersOperation]) -> ModelFailure? {
        var journaled = 0
        return firstFailure(of: operations, journaled: &journaled)
    }

    /// The first failure with the drawer's writes journaled (issue 39), or else with every
    /// step found by comparing versions; `journaled` counts the journal's steps.
    func firstFailure(of operations: [OtherWritersOperation], journaled: inout Int) -> ModelFailure? {
        ModelFailure.firstInEitherRecordingMode { firstFailure(of: operations, recordsWrites: $0, journaled: &journaled) }
    }

    private func firstFailure(of operations: [OtherWritersOperation], recordsWrites: Bool, journaled: inout Int) -> ModelFailure? {
        var options = UndoableOptions<AuthoredShelf.Action>(
            historyLimit: limit,
            recording: { $0.author != nil && $0.base.isRecorded },
            groupingBy: { $0.base.groupKey },
            clock: TestClock(),
            author: { action in action.author.map { HistoryAuthor($0) } }
        )
        options.policy.recordsWrites = recordsWrites
        let reducer = Authored(base: Shelf()).undoable(options)
        var state = UndoableState(initial)
        var store = EncodedHistoryStepStore<Shelf.State>()
        var storeHoldsState = false
        // The reference: each step's value before and after, by the version it leads to;
        // `nil` where the test cannot tell exactly (see `forget`).
        var steps: [HistoryVersion: Step?] = [:]
        // Per open scope: the value it started from, and whether another writer wrote during it.
        var scopeStarts: [(value: Shelf.State, hadForeignWrite: Bool)] = []
        // Whether another writer wrote since the current step was made (a group then diffs
        // against a base that moved along).
        var foreignSinceStep = false

        func send(_ action: UndoableAction<AuthoredShelf.Action>, oneStep: Bool = false) {
            let (journaledBefore, versionBefore) = (state.engine.journaledStepCount, state.currentVersionID)
            _ = reducer.reduce(into: &state, action: action)
            // A run the journal found changed nothing made no step.
            if state.currentVersionID != versionBefore {
                journaled += state.engine.journaledStepCount - journaledBefore
            }
            // A move past several steps that met a conflict leaves each of those steps holding
            // what was done, which the reference cannot tell (seed 389: a skipped note then
            // redone as nothing); a one-step move's caller forgets its one step itself.
            if !oneStep, !state.lastConflicts.isEmpty {
                for version in steps.keys { steps[version] = .some(nil) }
            }
        }
        func foreignWrite() {
            foreignSinceStep = true
            for index in scopeStarts.indices { scopeStarts[index].hadForeignWrite = true }
        }

        for (index, operation) in operations.enumerated() {
            let before = state.present
            let version = state.currentVersionID
            let hadUndo = state.hasUndo
            let nextRedo = state.steps().redo.first?.version
            func fail(_ message: String, _ kind: String) -> ModelFailure {
                ModelFailure(index: index, message: message, kind: kind)
            }
            switch operation {
            case let .action(action):
                send(.action(action))
                if action.author == nil || !action.base.isRecorded {
                    foreignWrite()
                } else if state.currentVersionID > version {
                    // A new version is newer than every other; a group that came back to where
                    // it started goes back to an older one instead.
                    steps[state.currentVersionID] = (before, state.present)
                    foreignSinceStep = false
                    if state.steps().undo.last?.author != HistoryAuthor(action.author!) {
                        return fail("the new step's author is \(String(describing: state.steps().undo.last?.author))", "author")
                    }
                } else if state.currentVersionID == version, state.present != before {
                    // The group's step grew.
                    if foreignSinceStep {
                        steps[version] = .some(nil)
                    } else if let step = steps[version] ?? nil {
                        steps[version] = (step.old, state.present)
                    }
                }
            case let .transaction(author, actions):
                send(.transaction(actions.map { .init(author: author, base: $0) }))
                if state.currentVersionID > version {
                    steps[state.currentVersionID] = (before, state.present)
                    foreignSinceStep = false
                    if state.steps().undo.last?.author != HistoryAuthor(author) {
                        return fail("the transaction's author is \(String(describing: state.steps().undo.last?.author))", "author")
                    }
                }
            case let .absorb(action):
                var value = state.present
                _ = Shelf().reduce(into: &value, action: action)
                state.absorb(value)
                foreignWrite()
                if state.currentVersionID != version {
                    return fail("absorbing made a step", "absorb")
                }
            case let .undo(steps: count):
                send(.undo(to: .steps(count)), oneStep: count == 1)
                if count == 1, hadUndo {
                    guard state.error == nil, state.currentVersionID != version else {
                        return fail("a one-step undo jammed: \(String(describing: state.error))", "jam")
                    }
                    if let step = steps[version] ?? nil {
                        if !state.lastConflicts.isEmpty { steps[version] = .some(nil) }
                        if let field = Self.brokenRule(undoing: step, before: before, after: state.present) {
                            return fail("undoing step \(version) broke the rule at \(field): before \(before), step \(step), after \(state.present)", "undo")
                        }
                    }
                }
            case let .redo(steps: count):
                send(.redo(to: .steps(count)), oneStep: count == 1)
                if count == 1, let next = nextRedo {
                    guard state.error == nil, state.currentVersionID == next else {
                        return fail("a one-step redo jammed: \(String(describing: state.error))", "jam")
                    }
                    if let step = steps[next] ?? nil {
                        if !state.lastConflicts.isEmpty { steps[next] = .some(nil) }
                        if let field = Self.brokenRule(undoing: (step.new, step.old), before: before, after: state.present) {
                            return fail("redoing step \(next) broke the rule at \(field): before \(before), step \(step), after \(state.present)", "redo")
                        }
                    }
                }
            case let .undoBy(author), let .redoBy(author):
                let isUndo = if case .undoBy = operation { true } else { false }
                send(isUndo ? .undo(by: HistoryAuthor(author)) : .redo(by: HistoryAuthor(author)))
                if let error = state.error {
                    return fail("a per-author move failed: \(error)", "jam")
                }
                for field in Self.fields where !Self.owned[author].contains(field.name) && field.read(before) != field.read(state.present) {
                    return fail("\(operation) changed \(field.name), which is not the author's: before \(before), after \(state.present)", "author")
                }
                if state.currentVersionID > version {
                    steps[state.currentVersionID] = (before, state.present)
                    foreignSinceStep = false
                    if state.steps().undo.last?.author != HistoryAuthor(author) {
                        return fail("the per-author move's step is by \(String(describing: state.steps().undo.last?.author))", "author")
                    }
                } else if state.currentVersionID != version || state.present != before {
                    return fail("a per-author move changed the present without a step", "author")
                }
            case let .tag(tag): send(.tag(HistoryTag(tag)))
            case let .undoToTag(tag): send(.undo(to: .tag(HistoryTag(tag))))
            case let .redoToTag(tag): send(.redo(to: .tag(HistoryTag(tag))))
            case .pushScope:
                send(.pushNewScope)
                scopeStarts.append((state.present, false))
            case .popScope:
                send(.popCurrentScope)
                if let start = scopeStarts.popLast(), state.currentVersionID == version {
                    if state.error != nil || start.hadForeignWrite {
                        steps[version] = .some(nil)
                    } else if start.value != state.present {
                        // The squashed step leads to the version the scope ended on.
                        steps[version] = (start.value, state.present)
                    }
                }
            case .discardScope:
                send(.undoAndPopCurrentScope)
                if !scopeStarts.isEmpty, state.scopeLevel < scopeStarts.count {
                    let start = scopeStarts.removeLast()
                    // Taken back as far as other writers allow; popped instead when it could not be.
                    if state.error != nil || start.hadForeignWrite { steps[state.currentVersionID] = .some(nil) }
                }
            case .clearHistory:
                send(.removeAllVersions)
                scopeStarts = []
            case let .moveEarlier(count): send(.move(to: count >= 0 ? .earlier(count) : .later(-count)))
            case .stopGrouping: send(.stopGrouping)
            case .saveAndReload:
                // Saved as JSON and loaded as an app would after a restart: the present, every
                // scope, step, author and tag, and that other writers wrote, all come back.
                let loaded: UndoableState<Shelf.State>
                do {
                    let data = try JSONEncoder().encode(state)
                    loaded = try JSONDecoder().decode(UndoableState<Shelf.State>.self, from: data)
                } catch {
                    return fail("saving and reloading failed: \(error)", "reload")
                }
                let same = state.error == nil ? loaded == state : loaded.present == state.present && loaded.scopeLevel == state.scopeLevel
                guard same, loaded.currentVersionID == state.currentVersionID, loaded.tree() == state.tree() else {
                    return fail("the reloaded state differs: \(loaded.steps()) against \(state.steps())", "reload")
                }
                state = loaded
                storeHoldsState = false
            case .saveToStoreAndReopen:
                let reopened: UndoableState<Shelf.State>
                do {
                    // A store holds one history: after a whole reload, the state starts a new one.
                    if !storeHoldsState { store = EncodedHistoryStepStore() }
                    var saved = state
                    try saved.saveHistory(to: store)
                    reopened = try UndoableState(present: state.present, store: store)
                } catch {
                    return fail("saving to the store and reopening failed: \(error)", "store")
                }
                guard reopened.present == state.present, reopened.scopeLevel == state.scopeLevel,
                      reopened.currentVersionID == state.currentVersionID, reopened.tree() == state.tree(),
                      reopened.steps() == state.steps() else {
                    return fail("the reopened state differs: \(reopened.steps()) against \(state.steps())", "store")
                }
                state = reopened
                storeHoldsState = true
            }
            // Nothing may fail for someone else's write: the policy skips it.
            if case .stepRefused? = state.error {
                return fail("\(operation) failed for another writer's change: \(state.error!)", "jam")
            }
            if state.scopeLevel != scopeStarts.count {
                return fail("the state is at scope \(state.scopeLevel), the run expected \(scopeStarts.count)", "scope")
            }
        }
        return nil
    }
}
