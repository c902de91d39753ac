import Revertible
import TestSupport
import Testing
import UndoableReducer

/// The one read-only history view, `HistoryView`: the controller, a `@Versioned` property's
/// projection and the undoable reducer's state answer every question the same way for the
/// same history, and each answers it under the view's name too (`HistoryReading`).
@Suite("History view")
struct HistoryViewTests {

    /// The value all three front doors track.
    struct Note: Versionable, Sendable {
        var text = ""
        var count = 0

        func addReversions(into reverter: inout some Reverter<Note>) {
            reverter.appendReversion(at: \.text)
            reverter.appendReversion(at: \.count)
        }
    }

    /// A reducer that sets the note, for the reducer's front door.
    struct Notes: Reducer {
        func reduce(into state: inout Note, action: Note) -> Effect<Note> {
            state = action
            return .none
        }
    }

    /// One thing done to a history, the same way at every front door.
    enum Operation: CustomStringConvertible {
        case set(Note)
        case absorb(Note)
        case undo(Int)
        case redo(Int)
        case undoToTag(String)
        case tag(String)
        case pushNewScope
        case popCurrentScope
        case undoAndPopCurrentScope

        var description: String {
            switch self {
            case let .set(note): "set(\(note.text), \(note.count))"
            case let .absorb(note): "absorb(\(note.text), \(note.count))"
            case let .undo(steps): "undo(\(steps))"
            case let .redo(steps): "redo(\(steps))"
            case let .undoToTag(tag): "undo(to: \(tag))"
            case let .tag(tag): "tag(\(tag))"
            case .pushNewScope: "pushNewScope"
            case .popCurrentScope: "popCurrentScope"
            case .undoAndPopCurrentScope: "undoAndPopCurrentScope"
            }
        }
    }

    /// The three front doors over one history each, driven in step.
    final class Doors {
        let controller = ValueVersioningController(Note(), clock: TestClock())
        @Versioned(wrappedValue: Note(), clock: TestClock()) var property: Note
        let reducer = Notes().undoable(UndoableOptions(clock: TestClock()))
        var state = UndoableState(Note())

        func apply(_ operation: Operation) {
            switch operation {
            case let .set(note):
                controller.append(note)
                property = note
                send(.action(note))
            case let .absorb(note):
                controller.absorb(note)
                $property.absorb(note)
                state.absorb(note)
            case let .undo(steps):
                _ = try? controller.undo(to: .steps(steps))
                _ = $property.undo(to: .steps(steps))
                send(.undo(to: .steps(steps)))
            case let .redo(steps):
                _ = try? controller.redo(to: .steps(steps))
                _ = $property.redo(to: .steps(steps))
                send(.redo(to: .steps(steps)))
            case let .undoToTag(tag):
                _ = try? controller.undo(to: tag)
                _ = $property.undo(to: tag)
                send(.undo(to: .tag(tag)))
            case let .tag(tag):
                controller.tag(tag)
                $property.tag(tag)
                send(.tag(HistoryTag(tag)))
            case .pushNewScope:
                controller.pushNewScope()
                $property.pushNewScope()
                send(.pushNewScope)
            case .popCurrentScope:
                try? controller.popCurrentScope()
                $property.popCurrentScope()
                send(.popCurrentScope)
            case .undoAndPopCurrentScope:
                _ = try? controller.undoAndPopCurrentScope()
                _ = $property.undoAndPopCurrentScope()
                send(.undoAndPopCurrentScope)
            }
        }

        private func send(_ action: UndoableAction<Note>) {
            _ = reducer.reduce(into: &state, action: action)
        }

        /// What the first door that disagrees answers, beside the controller's; `nil` when
        /// all three agree, through their views and through their own members alike.
        func disagreement() -> String? {
            let expected = Answers(controller.history)
            let others: [(String, Answers)] = [
                ("controller's own members", Answers(controller)),
                ("@Versioned's view", Answers($property.history)),
                ("@Versioned's own members", Answers($property)),
                ("UndoableState's view", Answers(state.history)),
                ("UndoableState's own members", Answers(state)),
            ]
            for (door, answers) in others where answers != expected {
                return "\(door):\n\(answers)\ncontroller's view:\n\(expected)"
            }
            return nil
        }
    }

    /// Every answer of a view, in one comparable value.
    struct Answers: Equatable, CustomStringConvertible {
        var counts: [Int]
        var flags: [Bool]
        var error: HistoryError?
        var conflicts: [ReversionConflict]
        var labels: [String?]
        var currentVersion: HistoryVersion
        var currentTags: [HistoryTag]
        var tagsPerScope: [[[HistoryTag?]]]
        var stepsPerScope: [[[HistoryStep]]]
        var treePerScope: [[HistoryStep]]
        var branchesOfCurrent: [HistoryStep]
        var locations: [HistoryTagLocation]
        var tagsOfVersions: [[HistoryTag]]
        var archivedSteps: Int

        static let tagNames = ["a", "b", "c", "never"]

        /// The answers of `door`: a front door's own (`controller.hasUndo`), or a view's.
        init(_ door: some HistoryReading<Note>) {
            let levels = 0...door.scopeLevel
            counts = [door.undoCount, door.redoCount, door.scopeLevel]
            flags = [door.hasUndo, door.hasRedo]
            error = door.error
            conflicts = door.lastConflicts
            labels = [door.nextUndoLabel, door.nextRedoLabel]
            currentVersion = door.currentVersionID
            currentTags = door.currentVersionTags
            tagsPerScope = levels.map { [door.tags(inScopeLevel: $0)!.undo, door.tags(inScopeLevel: $0)!.redo] }
                + [[door.tags().undo, door.tags().redo]]
            stepsPerScope = levels.map { [door.steps(inScopeLevel: $0)!.undo, door.steps(inScopeLevel: $0)!.redo] }
                + [[door.steps().undo, door.steps().redo]]
            treePerScope = levels.map { door.tree(inScopeLevel: $0)! } + [door.tree()]
            branchesOfCurrent = door.branches(from: door.currentVersionID)
            locations = Self.tagNames.map { door.location(of: $0) }
            tagsOfVersions = door.tree().map { door.tags(of: $0.version) }
            archivedSteps = door.archive.steps.count
            // Past the last scope there is none.
            precondition(door.tags(inScopeLevel: door.scopeLevel + 1) == nil && door.steps(inScopeLevel: -1) == nil)
        }

        var description: String {
            "counts \(counts), flags \(flags), error \(String(describing: error)), conflicts \(conflicts.count), "
                + "current \(currentVersion) \(currentTags), tags \(tagsPerScope), locations \(locations), "
                + "steps \(stepsPerScope.map { $0.map { $0.map(\.version) } }), tree \(treePerScope.map { $0.map(\.version) })"
        }
    }

    @Test("A scripted history: edits, a branch, tags, a scope, an absorbed write; every door answers alike")
    func scripted() {
        let doors = Doors()
        let script: [Operation] = [
            .set(Note(text: "a", count: 1)), .tag("a"),
            .set(Note(text: "ab", count: 1)), .set(Note(text: "ab", count: 2)),
            .undo(1), .set(Note(text: "ab", count: 3)), // a branch
            .tag("b"), .pushNewScope, .set(Note(text: "abc", count: 3)), .tag("c"),
            .absorb(Note(text: "abc", count: 9)), .undo(1), // a conflict-free absorbed write
            .undo(5), // refused: out of range
            .redo(1), .undoToTag("never"), // refused: unknown tag
        ]
        for operation in script {
            doors.apply(operation)
            #expect(doors.disagreement() == nil, "after \(operation)")
        }
        // The answers the three agree on are the history's, not three identical blanks.
        let view = doors.controller.history
        #expect(view.scopeLevel == 1 && view.undoCount == 1 && view.redoCount == 0)
        #expect(view.currentVersionTags == ["c"] && view.location(of: "b") == .behind(steps: 1))
        #expect(view.location(of: "a") == .outsideCurrentScope(level: 0))
        #expect(view.error != nil && view.tags(inScopeLevel: 0)!.undo == [nil, "a", nil, "b"])
        #expect(view.tree(inScopeLevel: 0)!.count == 4 && view.steps(inScopeLevel: 0)!.undo.count == 3)
        doors.apply(.popCurrentScope)
        #expect(doors.disagreement() == nil)
        #expect(doors.state.history.scopeLevel == 0 && doors.state.undoCount == 4 && doors.state.present.count == 9)
    }

    @Test("Random histories: after every operation, every door answers alike", arguments: RandomizedTesting.seeds(defaultIterations: 40))
    func randomized(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let doors = Doors()
        var done: [Operation] = []
        for _ in 0..<60 {
            let operation = Self.randomOperation(using: &generator)
            doors.apply(operation)
            done.append(operation)
            if let disagreement = doors.disagreement() {
                Issue.record("seed \(seed), after \(done): \(disagreement)")
                return
            }
        }
    }

    private static func randomOperation(using generator: inout SeededGenerator) -> Operation {
        let note = Note(text: ["", "x", "xy"].randomElement(using: &generator)!, count: Int.random(in: 0...3, using: &generator))
        let tag = Answers.tagNames.randomElement(using: &generator)!
        switch Int.random(in: 0..<12, using: &generator) {
        case 0...3: return .set(note)
        case 4: return .absorb(note)
        case 5: return .undo(Int.random(in: 1...3, using: &generator))
        case 6: return .redo(Int.random(in: 1...2, using: &generator))
        case 7: return .undoToTag(tag)
        case 8: return .tag(tag)
        case 9: return .pushNewScope
        case 10: return .popCurrentScope
        default: return .undoAndPopCurrentScope
        }
    }

    @Test("A view is a snapshot: later changes do not reach a view already taken")
    func snapshot() {
        let controller = ValueVersioningController(Note())
        controller.append(Note(text: "one"))
        let before = controller.history
        controller.append(Note(text: "two"))
        controller.tag("two")
        #expect(before.undoCount == 1 && before.currentVersionTags.isEmpty)
        #expect(controller.history.undoCount == 2 && controller.history.currentVersionTags == ["two"])

        var state = UndoableState(Note())
        let reducer = Notes().undoable(UndoableOptions(label: { "Set \($0.text)" }))
        _ = reducer.reduce(into: &state, action: .action(Note(text: "one")))
        let taken = state.history
        _ = reducer.reduce(into: &state, action: .undo)
        #expect(taken.nextUndoLabel == "Set one" && taken.nextRedoLabel == nil)
        #expect(state.history.nextUndoLabel == nil && state.nextRedoLabel == "Set one")
    }
}
