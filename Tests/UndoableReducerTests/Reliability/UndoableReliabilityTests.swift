import Foundation
import Revertible
import Testing
import TestSupport
@testable import UndoableReducer

/// A `Store` running an `undoable` reducer, driven by seeded random action sequences and held,
/// after every action, to ``ReferenceHistory`` (the same snapshot model the controller's
/// randomized tests use, shared through the TestSupport target).
///
/// ```sh
/// # More and longer sequences, or seeds from elsewhere:
/// RANDOMIZED_ITERATIONS=5000 RANDOMIZED_OPERATIONS=400 swift test --filter UndoableReliabilityTests
/// RANDOMIZED_FIRST_SEED=1000000 RANDOMIZED_ITERATIONS=5000 swift test --filter UndoableReliabilityTests
/// # Replay the seed a failure printed (with the same RANDOMIZED_OPERATIONS, if it was set):
/// RANDOMIZED_SEED=123 swift test --filter UndoableReliabilityTests
/// ```
@Suite("Undoable reliability: a store against the reference model")
struct UndoableReliabilityTests {

    @Test("Random action sequences leave the store's present, counts, scopes and tags as the model's")
    func randomSequences() {
        var (journaled, stashes) = (0, 0)
        let report = firstFailingSequence(suite: "UndoableReliabilityTests", defaultIterations: 100) { seed in
            let run = UndoableModelRun(seed: seed)
            let operations = run.operations(count: RandomizedTesting.operationsPerSequence)
            stashes += operations.filter { if case let .action(action) = $0 { action.writesDrawerOnly } else { false } }.count
            return ("history limit \(run.limit.map(String.init) ?? "none")", operations, { run.firstFailure(of: $0, journaled: &journaled) })
        }
        if let report { Issue.record("\(report)") }
        // Each sequence runs journaled, then compared: the journaled runs prove something
        // only if the drawer's writes reached the journal.
        if RandomizedTesting.isVerbose { print("UndoableReliabilityTests: \(journaled) of \(stashes) drawer actions journaled") }
        #expect(journaled * 4 > stashes, "\(journaled) of \(stashes) drawer actions journaled")
    }

    /// Issue 38, defects 3 and 4, at random: a history with tags, scopes and a small limit is
    /// written down as a replay and restored every so often, and the restored state must then
    /// look and behave as the live one, action after action, until the next replay.
    @Test("Random histories replayed and restored look and behave as the live ones")
    func randomReplays() {
        var abandonedMoves = 0
        let report = firstFailingSequence(suite: "UndoableReliabilityTests", defaultIterations: 40) { seed in
            let run = UndoableReplayRun(seed: seed)
            return ("history limit \(run.limit.map(String.init) ?? "none")", run.operations(count: RandomizedTesting.operationsPerSequence), {
                run.firstFailure(of: $0, abandonedMoves: &abandonedMoves)
            })
        }
        if let report { Issue.record("\(report)") }
        // Abandoning a scope whose tag moves the replay made again (seed 35) must happen;
        // the default seeds do it 3 times, a single seed or other seeds may not.
        if RandomizedTesting.isVerbose { print("UndoableReliabilityTests: \(abandonedMoves) scopes abandoned with tag moves made before a restore") }
        let environment = ProcessInfo.processInfo.environment
        if ["RANDOMIZED_SEED", "RANDOMIZED_FIRST_SEED", "RANDOMIZED_OPERATIONS"].allSatisfy({ environment[$0] == nil }),
           Int(environment["RANDOMIZED_ITERATIONS"] ?? "40") ?? 0 >= 40 {
            #expect(abandonedMoves > 0)
        }
    }

    /// Seed 1236 (limit 8), shrunk to 22 operations; issue 26. The two `"é"`s are the two
    /// spellings (`"\u{E9}"`, `"e\u{301}"`): the shrinker printed both as `"é"`, and either
    /// order fails. The limit folded the first steps of a scope into its start with one fresh
    /// comparison, which cannot see a string re-spelled canonically equivalently, so abandoning
    /// the scope left the name spelled as the scope had spelled it, and popping the scope below
    /// then failed (wrong version at `\State.name`): the store stayed a scope deeper than the
    /// model. The model was right: popping and abandoning never fail without an untracked
    /// change in the way.
    @Test("Abandoning a scope the limit folded keeps the scope below poppable (seed 1236)", arguments: [
        ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"),
    ])
    func seed1236(first: String, second: String) {
        let operations: [UndoableOperation] = [
            .pushScope, .action(.count("y", 0)), .action(.name(first)), .action(.insert(id: 15, title: "long title here", at: 4)),
            .pushScope, .action(.name("")), .action(.rename(at: 0, "😀")), .action(.name(second)), .action(.count("y", nil)),
            .action(.remove(at: 0)), .action(.rename(at: 3, "milk")), .action(.remove(at: 2)), .action(.note("milk")),
            .pushScope, .action(.toggle(at: 1)), .pushScope, .action(.toggle(at: 4)), .popScope,
            .action(.remove(at: 5)), .popScope, .discardScope, .popScope,
        ]
        let run = UndoableModelRun(seed: 1236)
        #expect(run.limit == 8)
        let failure = run.firstFailure(of: operations)
        #expect(failure == nil, "after operation \((failure?.index ?? 0) + 1): \(failure?.message ?? "")")
    }

    /// Found by `randomReplays` (seed 35) while the drawer's actions were being added, and
    /// not the journal's: it fails alike with every step found by comparing. Tags t1 and t2
    /// on the start, a scope with one step, t1 and t2 moved onto it and t1 moved back onto
    /// it, then the history replayed and restored and the scope abandoned: the restored
    /// state listed the present's tags as [t2, t1], the live one as [t1, t2]. Abandoning puts
    /// the tags back in the order the scope first moved them, and the replay moved them in
    /// the order they end in.
    @Test("A restored replay lists the present's tags in the live order after a scope that moved them is abandoned (seed 35)")
    func replayTagOrder() {
        let operations: [UndoableOperation] = [
            .tag("t1"), .tag("t2"), .pushScope, .action(.rename(at: 0, "milk")),
            .tag("t1"), .tag("t2"), .tag("t1"), .replayAndRestore, .discardScope,
        ]
        let failure = UndoableReplayRun(seed: 35).firstFailure(of: operations)
        #expect(failure == nil, "\(failure?.message ?? "")")
    }

    /// Issue 26's cause, shown directly: with a limit of 1, a scope re-spells the name and
    /// changes another field; folding its oldest step with the start by one comparison would
    /// lose the re-spelling, and abandoning the scope would leave the step before the scope
    /// unable to undo.
    @Test("A scope's folded start restores a re-spelled string exactly", arguments: [
        ("\u{E9}", "e\u{301}"), ("e\u{301}", "\u{E9}"),
    ])
    func foldedStartKeepsSpelling(before: String, inside: String) {
        let store = Store(initialState: UndoableState(Shelf.State(name: "shelf")), reducer: Shelf().undoable(UndoableOptions(historyLimit: 1)))
        for action: UndoableAction<Shelf.Action> in [
            .action(.name(before)), .pushNewScope, .action(.name("x")), .action(.name(inside)),
            .action(.count("y", 1)), .action(.note("n")), .undoAndPopCurrentScope, .undo,
        ] {
            store.send(action)
            #expect(store.state.error == nil, "\(action)")
        }
        #expect(store.state.present == Shelf.State(name: "shelf"))
        #expect(store.state.scopeLevel == 0 && !store.state.hasUndo && store.state.hasRedo)
    }

    /// Issue 22, bug 1, as a random search found it (limit 2): the scope abandoned at
    /// operation 18 had a start folded without its re-spelling, so popping the scope below
    /// failed and every later action piled steps onto that scope past the limit.
    @Test("Scopes under a limit with re-spelled strings pop, and hold no more steps than the limit")
    func reSpelledScopesStayWithinTheLimit() {
        let (nfc, nfd) = ("\u{E9}", "e\u{301}")
        let store = Store(initialState: UndoableState(Shelf.State()), reducer: Shelf().undoable(UndoableOptions(historyLimit: 2)))
        for action: UndoableAction<Shelf.Action> in [
            .action(.name("x")), .pushNewScope, .undo, .action(.name(nfc)), .pushNewScope,
            .action(.count("k", 32)), .action(.name(nfc)), .action(.name(nfd)), .action(.name("x")), .action(.name(nfd)),
            .action(.name("a")), .action(.count("k", 96)), .undoAndPopCurrentScope,
            .action(.name(nfc)), .action(.name(nfd)), .action(.name("x")), .popCurrentScope,
            .action(.name("a")), .action(.count("k", 82)),
        ] {
            store.send(action)
            #expect(store.state.error == nil, "\(action)")
            #expect(store.state.tree().count <= 2, "\(action)")
        }
        #expect(store.state.scopeLevel == 0 && store.state.undoCount == 2)
        store.send(.undo(to: .steps(2)))
        #expect(store.state.error == nil && store.state.present.name == "x")
    }

    /// Issue 27, item 1: with a limit of 1, the first step of a new scope pushed the one step
    /// before the scope out of the history, so after abandoning the scope nothing was left to
    /// undo. A scope never costs anything older than its start.
    @Test("A scope under a limit of 1 keeps the step before it until it ends")
    func scopeKeepsTheStepBeforeIt() {
        let store = Store(initialState: UndoableState(Shelf.State()), reducer: Shelf().undoable(UndoableOptions(historyLimit: 1)))
        store.send(.action(.insert(id: 1, title: "milk", at: 0)))
        store.send(.pushNewScope)
        store.send(.action(.insert(id: 2, title: "eggs", at: 1)))
        store.send(.action(.insert(id: 3, title: "tea", at: 2)))
        // Inside, the limit trims only the scope: its newest step, and the one before it.
        #expect(store.state.undoCount == 1)
        #expect(store.state.steps(inScopeLevel: 0)?.undo.count == 1)
        store.send(.undoAndPopCurrentScope)
        #expect(store.state.present.items.map(\.id) == [1])
        #expect(store.state.hasUndo)
        store.send(.undo)
        #expect(store.state.error == nil && store.state.present.items.isEmpty)

        // Popped, the scope is one step, and the limit applies again: only that step is left.
        store.send(.redo)
        store.send(.pushNewScope)
        store.send(.action(.insert(id: 2, title: "eggs", at: 1)))
        store.send(.action(.insert(id: 3, title: "tea", at: 2)))
        store.send(.popCurrentScope)
        #expect(store.state.undoCount == 1 && store.state.tree().count == 1)
        store.send(.undo)
        #expect(store.state.present.items.map(\.id) == [1])
    }

    /// Found by seed 1174: a scope that re-spelled a string canonically equivalently (and so
    /// popped with no net change) left the history's copy with its bytes, which the steps of
    /// the scope below did not match, so discarding that scope failed.
    @Test("Popping a scope that re-spelled a string keeps the scope below undoable (seed 1174)")
    func poppedReSpelling() {
        let initial = Shelf.State(items: (0..<4).map { Shelf.Item(id: -1 - $0, title: "start \($0)") }, name: "shelf")
        let store = Store(initialState: UndoableState(initial), reducer: Shelf().undoable())
        for action: UndoableAction<Shelf.Action> in [
            .pushNewScope, .transaction([.name("\u{E9}"), .move(from: 2, to: 1)]),
            .pushNewScope, .action(.name("b")), .action(.name("e\u{301}")), .popCurrentScope, .undoAndPopCurrentScope,
        ] {
            store.send(action)
            #expect(store.state.error == nil, "\(action)")
        }
        #expect(store.state.present == initial)
        #expect(store.state.scopeLevel == 0 && store.state.undoCount == 0)
    }

    /// Found by seed 311 (grouping by key): a group whose changes came back to where it
    /// started, spelled differently (`"é"` as `"e\u{301}"`), dropped its step but kept the new
    /// spelling in the history's copy, which the step before it did not match, so popping the
    /// scope failed.
    @Test("A group that comes back to a re-spelled start keeps the steps before it undoable (seed 311)")
    func groupBackToReSpelledStart() {
        let reducer = Shelf().undoable(UndoableOptions(groupingBy: \.groupKey))
        let store = Store(initialState: UndoableState(Shelf.State()), reducer: reducer)
        for action: UndoableAction<Shelf.Action> in [
            .pushNewScope, .transaction([.name("\u{E9}")]), .action(.name("b")), .action(.name("e\u{301}")), .popCurrentScope,
        ] {
            store.send(action)
            #expect(store.state.error == nil, "\(action)")
        }
        #expect(store.state.scopeLevel == 0 && store.state.undoCount == 1)
        store.send(.undo)
        #expect(store.state.present.name == "" && store.state.error == nil)
    }

    @Test("The shelf's reducer edits every kind of field")
    func shelfSanity() {
        var state = Shelf.State()
        for action: Shelf.Action in [
            .insert(id: 1, title: "a", at: 0), .insert(id: 2, title: "b", at: 0), .move(from: 0, to: 1),
            .rename(at: 0, "z"), .toggle(at: 1), .label("x"), .count("k", 3), .note("n"), .name("s"), .remove(at: 1),
        ] {
            _ = Shelf().reduce(into: &state, action: action)
        }
        #expect(state.items == [Shelf.Item(id: 1, title: "z")])
        #expect(state.labels == ["x"] && state.counts == ["k": 3] && state.note == "n" && state.name == "s")
    }
}

// MARK: - The state and its reducer

/// A nested versionable state: an identifiable array of items with titles and flags, a set,
/// a dictionary, an optional and a string.
struct Shelf: Reducer {
    struct Item: Identifiable, Versionable, Equatable, Sendable, Codable {
        let id: Int
        var title: String
        var done = false

        func addReversions(into reverter: inout some Reverter<Item>) {
            reverter.appendReversion(at: \.title)
            reverter.appendReversion(at: \.done)
        }
    }

    struct State: Versionable, Equatable, Sendable, Codable {
        var items: [Item] = []
        var labels: Set<String> = []
        var counts: [String: Int] = [:]
        var note: String?
        var name = ""
        /// Written only by `moveCursor`, which the reducer's `recording:` filter leaves out.
        var cursor = 0
        /// Ignored: a change only here is no step.
        var hover = 0
        /// A nested value with an ignored field beside a versioned one.
        var panel = Panel()
        /// Items put aside, in a `TreeArray`: an action that writes only here is recorded as
        /// the tree writes it (the journal, issue 39), where the runs let it.
        var drawer: TreeArray<Item> = []

        func addReversions(into reverter: inout some Reverter<State>) {
            reverter.appendReversion(at: \.items)
            reverter.appendReversion(at: \.labels)
            reverter.appendReversion(at: \.counts)
            reverter.appendReversion(at: \.note)
            reverter.appendReversion(at: \.name)
            reverter.appendReversion(at: \.cursor)
            reverter.ignore(\.hover)
            reverter.appendReversion(at: \.panel)
            reverter.appendReversion(at: \.drawer)
        }
    }

    /// A pane of the shelf: its width follows the name (versioned), its hover the pointer
    /// (ignored).
    struct Panel: Versionable, Equatable, Sendable, Codable {
        var width = 0
        var hover = 0

        func addReversions(into reverter: inout some Reverter<Panel>) {
            reverter.appendReversion(at: \.width)
            reverter.ignore(\.hover)
        }
    }

    /// Positions are taken modulo the count, so every action applies to any state (a shrunk
    /// sequence keeps working).
    enum Action: Sendable, Equatable, CustomStringConvertible {
        case insert(id: Int, title: String, at: Int)
        case remove(at: Int)
        case move(from: Int, to: Int)
        case rename(at: Int, String)
        case toggle(at: Int)
        /// Adds the label, or removes it if present.
        case label(String)
        /// Sets or removes a key.
        case count(String, Int?)
        case note(String?)
        case name(String)
        /// Not recorded (the `recording:` filter).
        case moveCursor(Int)
        /// Changes only the ignored hovers (`hover`, `panel.hover`).
        case hover(Int)
        /// Inserts an item into the drawer.
        case stash(id: Int, title: String, at: Int)
        case renameStashed(at: Int, String)
        /// Removes an item from the drawer.
        case unstash(at: Int)
        case noop

        /// Whether the action writes the drawer and nothing else (when it writes at all).
        var writesDrawerOnly: Bool {
            switch self {
            case .stash, .renameStashed, .unstash: true
            default: false
            }
        }

        /// Whether the `recording:` filter keeps the action.
        var isRecorded: Bool {
            if case .moveCursor = self { false } else { true }
        }

        /// Typing a name: consecutive names are one step.
        var groupKey: HistoryTag? {
            if case .name = self { "name" } else { nil }
        }

        var description: String {
            switch self {
            case let .insert(id, title, at): "insert(\(id), \(title.debugDescription), at: \(at))"
            case let .remove(at): "remove(at: \(at))"
            case let .move(from, to): "move(\(from) → \(to))"
            case let .rename(at, title): "rename(at: \(at), \(title.debugDescription))"
            case let .toggle(at): "toggle(at: \(at))"
            case let .label(label): "label(\(label.debugDescription))"
            case let .count(key, value): "count(\(key.debugDescription), \(value.map(String.init) ?? "nil"))"
            case let .note(note): "note(\(note?.debugDescription ?? "nil"))"
            case let .name(name): "name(\(name.debugDescription))"
            case let .moveCursor(cursor): "moveCursor(\(cursor))"
            case let .hover(hover): "hover(\(hover))"
            case let .stash(id, title, at): "stash(\(id), \(title.debugDescription), at: \(at))"
            case let .renameStashed(at, title): "renameStashed(at: \(at), \(title.debugDescription))"
            case let .unstash(at): "unstash(at: \(at))"
            case .noop: "noop"
            }
        }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        let count = state.items.count
        switch action {
        case let .insert(id, title, at):
            state.items.insert(Item(id: id, title: title), at: at % (count + 1))
        case let .remove(at):
            if count > 0 { state.items.remove(at: at % count) }
        case let .move(from, to):
            if count > 0 { state.items.insert(state.items.remove(at: from % count), at: to % count) }
        case let .rename(at, title):
            if count > 0 { state.items[at % count].title = title }
        case let .toggle(at):
            if count > 0 { state.items[at % count].done.toggle() }
        case let .label(label):
            if state.labels.remove(label) == nil { state.labels.insert(label) }
        case let .count(key, value):
            state.counts[key] = value
        case let .note(note):
            state.note = note
        case let .name(name):
            state.name = name
            state.panel.width = name.count
        case let .moveCursor(cursor):
            state.cursor = cursor
        case let .hover(hover):
            state.hover = hover
            state.panel.hover = hover
        case let .stash(id, title, at):
            state.drawer.insert(Item(id: id, title: title), at: at % (state.drawer.count + 1))
        case let .renameStashed(at, title):
            if !state.drawer.isEmpty { state.drawer[at % state.drawer.count].title = title }
        case let .unstash(at):
            if !state.drawer.isEmpty { state.drawer.remove(at: at % state.drawer.count) }
        case .noop:
            break
        }
        return .none
    }
}

// MARK: - The run

enum UndoableOperation: CustomStringConvertible {
    case action(Shelf.Action)
    case undo(steps: Int)
    case redo(steps: Int)
    case tag(String)
    case undoToTag(String)
    case redoToTag(String)
    case pushScope
    case popScope
    case discardScope
    case clearHistory
    case transaction([Shelf.Action])
    /// A version of the current scope by its place in the order versions were made (modulo
    /// their count); a negative place names one that never existed.
    case moveToVersion(Int)
    /// Versions earlier (negative: later) in the order they were made; past either end stops
    /// there.
    case moveEarlier(Int)
    /// The oldest (`true`) or newest version of the current scope.
    case moveToEnd(oldest: Bool)
    /// Ends the open group.
    case stopGrouping
    /// Encodes the state as JSON and goes on with a new store on the decoded state.
    case saveAndLoad
    /// Writes the history down as a replay and restores it beside the live state (see
    /// ``UndoableReplayRun``).
    case replayAndRestore

    var action: UndoableAction<Shelf.Action> {
        switch self {
        case let .action(action): .action(action)
        case let .undo(steps): .undo(to: .steps(steps))
        case let .redo(steps): .redo(to: .steps(steps))
        case let .tag(tag): .tag(HistoryTag(tag))
        case let .undoToTag(tag): .undo(to: .tag(HistoryTag(tag)))
        case let .redoToTag(tag): .redo(to: .tag(HistoryTag(tag)))
        case .pushScope: .pushNewScope
        case .popScope: .popCurrentScope
        case .discardScope: .undoAndPopCurrentScope
        case .clearHistory: .removeAllVersions
        case let .moveToEnd(oldest): .move(to: oldest ? .oldest : .newest)
        case .stopGrouping: .stopGrouping
        case .moveToVersion, .moveEarlier, .saveAndLoad, .replayAndRestore: preconditionFailure("run by the run itself")
        case let .transaction(actions): .transaction(actions)
        }
    }

    var description: String {
        switch self {
        case let .action(action): ".action(\(action))"
        case let .transaction(actions): ".transaction([\(actions.map(\.description).joined(separator: ", "))])"
        case let .moveToVersion(place): ".moveToVersion(\(place))"
        case let .moveEarlier(count): ".moveEarlier(\(count))"
        case .saveAndLoad: ".saveAndLoad"
        case .replayAndRestore: ".replayAndRestore"
        default: "\(action)"
        }
    }
}

struct UndoableModelRun {
    let seed: UInt64
    /// Set on a third of the seeds.
    let limit: Int?
    /// Set on half of the seeds: the clock never moves, so keyed actions group as by key
    /// alone, and an action without a key must still never join a group.
    let groupingInterval: Duration?
    let initial: Shelf.State

    init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed)
        limit = seed % 3 == 0 ? Int.random(in: 1...8, using: &random) : nil
        groupingInterval = seed % 2 == 0 ? .seconds(1) : nil
        initial = Shelf.State(
            items: (0..<Int.random(in: 0...4, using: &random)).map { Shelf.Item(id: -1 - $0, title: "start \($0)") },
            labels: ["a"], counts: ["x": 1], note: nil, name: "shelf"
        )
    }

    typealias Failure = ModelFailure

    func operations(count: Int) -> [UndoableOperation] {
        var random = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 7)
        var drawerRandom = SeededGenerator(seed: seed ^ 0xD4A3_3E40)
        var nextID = 0
        let words = ["", "a", "b", "milk", "é", "e\u{301}", "😀", "中文", "long title here"]
        let tags = ["t1", "t2", "t3"]
        func position() -> Int { Int.random(in: 0..<8, using: &random) }
        func word() -> String { words.randomElement(using: &random)! }
        func baseAction(includingUnrecorded: Bool = true) -> Shelf.Action {
            if includingUnrecorded, Int.random(in: 0..<8, using: &random) == 0 {
                return Bool.random(using: &random) ? .moveCursor(position()) : .hover(position())
            }
            switch Int.random(in: 0..<11, using: &random) {
            case 0, 1:
                nextID += 1
                return .insert(id: nextID, title: word(), at: position())
            case 2: return .remove(at: position())
            case 3: return .move(from: position(), to: position())
            case 4: return .rename(at: position(), word())
            case 5: return .toggle(at: position())
            case 6: return .label(["a", "b", "c"].randomElement(using: &random)!)
            case 7: return .count(["x", "y"].randomElement(using: &random)!, Bool.random(using: &random) ? nil : position())
            case 8: return .note(Bool.random(using: &random) ? nil : word())
            case 9: return .name(word())
            default:
                // The drawer's actions come from a generator of their own, so each sequence
                // is the one it was before the drawer, with some of its no-ops now writes to
                // the drawer.
                switch Int.random(in: 0..<4, using: &drawerRandom) {
                case 0:
                    nextID += 1
                    return .stash(id: nextID, title: words.randomElement(using: &drawerRandom)!, at: Int.random(in: 0..<8, using: &drawerRandom))
                case 1: return .renameStashed(at: Int.random(in: 0..<8, using: &drawerRandom), words.randomElement(using: &drawerRandom)!)
                case 2: return .unstash(at: Int.random(in: 0..<8, using: &drawerRandom))
                default: return .noop
                }
            }
        }
        return (0..<count).map { _ in
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40: .action(baseAction())
            case 40..<48: .undo(steps: 1)
            case 48..<53: .undo(steps: Int.random(in: 0...5, using: &random))
            case 53..<60: .redo(steps: 1)
            case 60..<64: .redo(steps: Int.random(in: 0...5, using: &random))
            case 64..<70: .tag(tags.randomElement(using: &random)!)
            case 70..<74: .undoToTag(tags.randomElement(using: &random)!)
            case 74..<78: .redoToTag(tags.randomElement(using: &random)!)
            case 78..<83: .pushScope
            case 83..<87: .popScope
            case 87..<90: .discardScope
            case 90..<91: .clearHistory
            case 91..<93: .moveToVersion(Int.random(in: -1...30, using: &random))
            case 93..<95: Int.random(in: 0..<3, using: &random) == 0
                ? .moveToEnd(oldest: Bool.random(using: &random))
                : .moveEarlier(Int.random(in: -10...10, using: &random))
            case 95..<96: .stopGrouping
            case 96..<98: .saveAndLoad
            // A transaction records all its actions, so it holds no unrecorded ones.
            default: .transaction((0..<Int.random(in: 0...3, using: &random)).map { _ in baseAction(includingUnrecorded: false) })
            }
        }
    }

    func firstFailure(of operations: [UndoableOperation]) -> Failure? {
        var journaled = 0
        return firstFailure(of: operations, journaled: &journaled)
    }

    /// The first failure with the drawer's writes journaled (issue 39), or else with every
    /// step found by comparing versions; `journaled` counts the journal's steps.
    func firstFailure(of operations: [UndoableOperation], journaled: inout Int) -> Failure? {
        ModelFailure.firstInEitherRecordingMode { firstFailure(of: operations, recordsWrites: $0, journaled: &journaled) }
    }

    private func firstFailure(of operations: [UndoableOperation], recordsWrites: Bool, journaled: inout Int) -> Failure? {
        var options = UndoableOptions<Shelf.Action>(
            historyLimit: limit,
            recording: \.isRecorded,
            groupingBy: \.groupKey,
            debounceInterval: groupingInterval,
            clock: TestClock()
        )
        options.policy.recordsWrites = recordsWrites
        let reducer = Shelf().undoable(options)
        var store = Store(initialState: UndoableState(initial), reducer: reducer)
        var model = ReferenceHistory(initial, limit: limit, untracked: [.init(\.cursor), .init(\.hover), .init(\.panel.hover)])
        // The last refusal stays in `error` until a command succeeds.
        var expectedError: ReferenceHistory<Shelf.State>.Refusal?
        for (index, operation) in operations.enumerated() {
            if case .saveAndLoad = operation {
                do {
                    let loaded = try JSONDecoder().decode(UndoableState<Shelf.State>.self, from: JSONEncoder().encode(store.state))
                    // Loading clears the last error; everything else is held to the model below.
                    store = Store(initialState: loaded, reducer: reducer)
                } catch {
                    return Failure(index: index, message: "saving and loading failed: \(error)", kind: "archive")
                }
                model.reload()
                expectedError = nil
                if store.state.error != nil {
                    return Failure(index: index, message: "a loaded state has an error", kind: "archive")
                }
                if let (kind, message) = mismatch(between: store.state, and: model) {
                    return Failure(index: index, message: "after loading, \(message)", kind: kind)
                }
                continue
            }
            let action = action(for: operation, model: model)
            let refusal = apply(operation, to: &model)
            let (journaledBefore, versionBefore) = (store.state.engine.journaledStepCount, store.state.currentVersionID)
            store.send(action)
            // A run the journal found changed nothing made no step.
            if store.state.currentVersionID != versionBefore {
                journaled += store.state.engine.journaledStepCount - journaledBefore
            }
            if let misuse = model.misuse {
                return Failure(index: index, message: "the test used the model wrongly: \(misuse)", kind: "model")
            }
            switch operation {
            case .action, .transaction: break
            default: expectedError = refusal
            }
            // Nothing here changes the state behind the history's back, so no step can meet a
            // wrong version: such an error is a bug, though it is no refusal.
            if let error = store.state.error, error.refusal == nil {
                return Failure(index: index, message: "the state's error is \(error), where the model refuses nothing", kind: "wrongVersion")
            }
            if store.state.error?.refusal != expectedError {
                let expected = expectedError.map { "a refusal (\($0))" } ?? "no refusal"
                return Failure(index: index, message: "expected \(expected), the state's error is \(String(describing: store.state.error))", kind: "refusal")
            }
            if let (kind, message) = mismatch(between: store.state, and: model) {
                return Failure(index: index, message: message, kind: kind)
            }
        }
        return nil
    }

    private func apply(_ operation: UndoableOperation, to model: inout ReferenceHistory<Shelf.State>) -> ReferenceHistory<Shelf.State>.Refusal? {
        func reduced(_ actions: [Shelf.Action]) -> Shelf.State {
            var state = model.current
            for action in actions { _ = Shelf().reduce(into: &state, action: action) }
            return state
        }
        switch operation {
        case let .action(action) where !action.isRecorded: model.recordWithoutTracking(reduced([action]))
        case let .action(action):
            let grouped = action.groupKey != nil
            model.record(reduced([action]), grouped: grouped, opensGroup: grouped)
        case let .transaction(actions): model.record(reduced(actions), opensGroup: false)
        case let .undo(steps): return model.undo(steps: steps)
        case let .redo(steps): return model.redo(steps: steps)
        case let .tag(tag): model.tag(AnyHashable(tag))
        case let .undoToTag(tag): return model.undo(to: AnyHashable(tag))
        case let .redoToTag(tag): return model.redo(to: AnyHashable(tag))
        case .pushScope: model.pushScope()
        case .popScope: return model.popScope()
        case .discardScope: return model.discardScope()
        case .clearHistory: model.removeAll()
        case let .moveToVersion(place): return model.move(toVersion: model.versionID(atPlace: place))
        case let .moveEarlier(count): return model.move(earlierBy: count)
        case let .moveToEnd(oldest): return model.move(toOldest: oldest)
        case .stopGrouping: model.stopGrouping()
        case .saveAndLoad: model.reload()
        case .replayAndRestore: preconditionFailure("only a replay run makes replays")
        }
        return nil
    }

    /// The store's action for `operation`; moves to a version name it as the model does.
    private func action(for operation: UndoableOperation, model: ReferenceHistory<Shelf.State>) -> UndoableAction<Shelf.Action> {
        switch operation {
        case let .moveToVersion(place): .move(to: .version(HistoryVersion(UInt64(model.versionID(atPlace: place)))))
        case let .moveEarlier(count): .move(to: count >= 0 ? .earlier(count) : .later(-count))
        default: operation.action
        }
    }

    private func mismatch(between state: UndoableState<Shelf.State>, and model: ReferenceHistory<Shelf.State>) -> (kind: String, message: String)? {
        if state.present != model.current {
            return ("present", "the present is \(state.present), the model's is \(model.current)")
        }
        let observed = HistoryObservation(
            scopeLevel: state.scopeLevel,
            undoCount: state.undoCount,
            redoCount: state.redoCount,
            hasUndo: state.hasUndo,
            hasRedo: state.hasRedo,
            tags: state.tags(inScopeLevel:),
            currentTags: state.currentVersionTags.map(\.base),
            currentVersion: Int(state.currentVersionID.rawValue)
        )
        if let difference = observed.firstDifference(from: HistoryObservation(model)) { return difference }
        // Step times never go backwards, whatever the clock and however often it was reloaded.
        let times = state.tree().map(\.time)
        if times != times.sorted() {
            return ("time", "step times go backwards, in the order steps were made: \(times)")
        }
        return nil
    }

}

/// The live state of an `undoable` reducer against its replay, restored: random operations
/// from ``UndoableModelRun``'s mix, less what a replay cannot hold (unrecorded actions and
/// a history loaded from an archive, whose steps keep no actions; version identifiers,
/// which a rebuilt history numbers anew), with a small limit. Where that mix saves and loads,
/// this run replays and restores; each later operation goes to both states, which must
/// then agree on everything the history shows.
struct UndoableReplayRun {
    let seed: UInt64
    /// Small, and none on a quarter of the seeds.
    let limit: Int?
    let initial: Shelf.State
    static let tags = ["t1", "t2", "t3"]

    init(seed: UInt64) {
        self.seed = seed
        let model = UndoableModelRun(seed: seed)
        limit = [nil, 1, 2, 3][Int(seed % 4)]
        initial = model.initial
    }

    func operations(count: Int) -> [UndoableOperation] {
        var random = SeededGenerator(seed: seed &* 31 &+ 5)
        return UndoableModelRun(seed: seed).operations(count: count).flatMap { operation -> [UndoableOperation] in
            switch operation {
            case let .action(action) where !action.isRecorded: return [.action(.noop)]
            case .action(.hover): return [.action(.noop)]
            case .saveAndLoad, .stopGrouping: return [.replayAndRestore]
            case .moveToVersion: return [.moveEarlier(Int.random(in: -4...4, using: &random))]
            case let .tag(tag) where Bool.random(using: &random):
                // Two tags on one version, the first given again: a scope doing this moves
                // them in another order than the version lists them, and abandoning it puts
                // them back in the order it moved them (seed 35).
                let other = Self.tags.filter { $0 != tag }.randomElement(using: &random)!
                return [.tag(tag), .tag(other), .tag(tag)]
            default: return [operation]
            }
        } + [.replayAndRestore]
    }

    func firstFailure(of operations: [UndoableOperation]) -> ModelFailure? {
        var abandonedMoves = 0
        return firstFailure(of: operations, abandonedMoves: &abandonedMoves)
    }

    /// The first failure; `abandonedMoves` counts the scopes abandoned that had moved tags
    /// before the last restore, so the replay had to make those moves again.
    func firstFailure(of operations: [UndoableOperation], abandonedMoves: inout Int) -> ModelFailure? {
        let reducer = Shelf().undoable(UndoableOptions(historyLimit: limit))
        var live = UndoableState(initial)
        var restored: UndoableState<Shelf.State>?
        // Per scope level, whether the scope there moved tags before the last restore; a
        // level popped since holds another scope.
        var movedBeforeRestore: [Bool] = []
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .replayAndRestore:
                // A scope without a step cannot have a tag moved onto a version made and
                // dropped in it again (a replay's known limit): nothing to compare then.
                guard live.replayKeepsEveryTagMove(of: Shelf.Action.self) else {
                    restored = nil
                    continue
                }
                do {
                    restored = try reducer.restore(live.replay(of: Shelf.Action.self))
                } catch {
                    return ModelFailure(index: index, message: "replaying and restoring failed: \(error)", kind: "replay")
                }
                movedBeforeRestore = live.engine.scopes.map { !$0.movedTags.isEmpty }
            default:
                let level = live.scopeLevel
                if case .discardScope = operation, restored != nil, level > 0, movedBeforeRestore.indices.contains(level), movedBeforeRestore[level] {
                    abandonedMoves += 1
                }
                let action: UndoableAction<Shelf.Action> = switch operation {
                case let .moveEarlier(count): .move(to: count >= 0 ? .earlier(count) : .later(-count))
                default: operation.action
                }
                _ = reducer.reduce(into: &live, action: action)
                movedBeforeRestore = Array(movedBeforeRestore.prefix(live.scopeLevel > level ? level + 1 : live.scopeLevel + 1))
                if var state = restored {
                    _ = reducer.reduce(into: &state, action: action)
                    restored = state
                    // A base action leaves the last command's error; a restored state starts
                    // with none, so only a command's own error is compared.
                    if case .history = action, state.error != live.error {
                        return ModelFailure(index: index, message: "the restored state's error is \(String(describing: state.error)), the live one's \(String(describing: live.error))", kind: "error")
                    }
                }
            }
            if let restored, let (kind, message) = difference(between: restored, and: live) {
                return ModelFailure(index: index, message: message, kind: kind)
            }
        }
        return nil
    }

    /// What the restored state shows differently from the live one, if anything.
    private func difference(between restored: UndoableState<Shelf.State>, and live: UndoableState<Shelf.State>) -> (kind: String, message: String)? {
        if restored.present != live.present {
            return ("present", "the restored present is \(restored.present), the live one \(live.present)")
        }
        let counts = { (state: UndoableState<Shelf.State>) in
            [state.scopeLevel, state.undoCount, state.redoCount, state.hasUndo ? 1 : 0, state.hasRedo ? 1 : 0]
        }
        if counts(restored) != counts(live) {
            return ("counts", "scope level, undo, redo, hasUndo, hasRedo are \(counts(restored)) restored, \(counts(live)) live")
        }
        for tag in Self.tags where restored.location(of: tag) != live.location(of: tag) {
            return ("tags", "\(tag) is \(restored.location(of: tag)) restored, \(live.location(of: tag)) live")
        }
        if restored.currentVersionTags != live.currentVersionTags {
            return ("tags", "the present's tags are \(restored.currentVersionTags) restored, \(live.currentVersionTags) live")
        }
        for level in 0...live.scopeLevel where restored.tags(inScopeLevel: level)! != live.tags(inScopeLevel: level)! {
            return ("tags", "the tags of scope level \(level) are \(restored.tags(inScopeLevel: level)!) restored, \(live.tags(inScopeLevel: level)!) live")
        }
        if shape(of: restored) != shape(of: live) {
            return ("tree", "the current scope's tree is \(shape(of: restored)) restored, \(shape(of: live)) live")
        }
        return nil
    }

    /// The current scope's tree without version identifiers: for each step, in the order
    /// they were made, the place of its parent in that order (0 for the scope's oldest).
    private func shape(of state: UndoableState<Shelf.State>) -> [Int] {
        let steps = state.tree()
        let versions = steps.map(\.version)
        return steps.map { step in versions.firstIndex(of: step.parent).map { $0 + 1 } ?? 0 }
    }
}
