import Foundation
import Revertible
import Testing
import UndoableReducer

/// A saved history is its diffs: loading it gives the history the original had, whatever
/// the reducer reads, with limits, scopes and filters, and a damaged archive is refused.
@Suite("Undoable: a saved history comes back exactly")
struct UndoableArchiveTests {

    /// Inserts at a cursor that no step records: an action replay would rebuild a different
    /// history, since the recorded inserts read the unrecorded cursor.
    struct Cursor: Reducer {
        struct State: Versionable, Equatable, Sendable, Codable {
            var items: [Int] = []
            var cursor = 0

            func addReversions(into reverter: inout some Reverter<State>) {
                reverter.appendReversion(at: \.items)
                reverter.ignore(\.cursor)
            }
        }

        enum Action: Sendable, Equatable {
            case moveCursor(Int)
            case insertAtCursor
            case removeFirst
            case increment
        }

        func reduce(into state: inout State, action: Action) -> Effect<Action> {
            switch action {
            case let .moveCursor(position): state.cursor = position
            case .insertAtCursor: state.items.append(state.cursor)
            case .removeFirst: if !state.items.isEmpty { state.items.removeFirst() }
            case .increment: state.items.append(state.items.count)
            }
            return .none
        }
    }

    private func reloaded<State: Codable>(_ state: UndoableState<State>) throws -> UndoableState<State> {
        try JSONDecoder().decode(UndoableState<State>.self, from: JSONEncoder().encode(state))
    }

    @Test("Undo after loading gives what it gave before, when recorded actions read unrecorded state")
    func unrecordedReads() throws {
        let reducer = Cursor().undoable(UndoableOptions(recording: { if case .moveCursor = $0 { false } else { true } }))
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: reducer)
        for action: Cursor.Action in [.moveCursor(1), .insertAtCursor, .moveCursor(2), .insertAtCursor, .removeFirst] {
            store.send(.action(action))
        }
        let loaded = Store(initialState: try reloaded(store.state), reducer: reducer)
        #expect(loaded.state == store.state)
        store.send(.undo)
        loaded.send(.undo)
        #expect(store.state.present.items == [1, 2])
        #expect(loaded.state.present.items == [1, 2])
        loaded.send(.undo(to: .steps(2)))
        #expect(loaded.state.present.items == [] && loaded.state.error == nil)
    }

    @Test("A history trimmed inside an open scope loads and keeps working (the todo lock-out)")
    func limitInsideScope() throws {
        let reducer = Cursor().undoable(UndoableOptions(historyLimit: 2))
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: reducer)
        store.send(.action(.increment))
        store.send(.pushNewScope)
        for _ in 0..<3 { store.send(.action(.increment)) }
        let loaded = Store(initialState: try reloaded(store.state), reducer: reducer)
        #expect(loaded.state == store.state)
        for action: UndoableAction<Cursor.Action> in [.action(.increment), .undo, .popCurrentScope, .undo, .redo] {
            store.send(action)
            loaded.send(action)
            #expect(loaded.state == store.state, "\(action)")
            #expect(loaded.state.error == nil, "\(action)")
        }
    }

    @Test("Branches, tags and the branch redo follows survive saving")
    func branchesAndTags() throws {
        let reducer = Cursor().undoable()
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: reducer)
        store.send(.action(.increment))
        store.send(.tag("one"))
        store.send(.action(.increment))
        store.send(.undo)
        store.send(.action(.moveCursor(5)))
        store.send(.action(.insertAtCursor))
        let left = store.state.currentVersionID
        store.send(.undo)
        let loaded = Store(initialState: try reloaded(store.state), reducer: reducer)
        #expect(loaded.state.branches(from: loaded.state.currentVersionID).map(\.version)
                == store.state.branches(from: store.state.currentVersionID).map(\.version))
        loaded.send(.redo)
        #expect(loaded.state.currentVersionID == left && loaded.state.present.items == [0, 5])
        loaded.send(.undo(to: "one"))
        #expect(loaded.state.present.items == [0] && loaded.state.error == nil)
    }

    @Test("A tag moved inside an open scope goes back where it was when the scope, saved and loaded, is rolled back")
    func movedTagSurvivesSaving() throws {
        let reducer = Cursor().undoable()
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: reducer)
        store.send(.action(.increment))
        store.send(.tag("t"))
        store.send(.pushNewScope)
        store.send(.action(.increment))
        store.send(.tag("t"))
        let loaded = Store(initialState: try reloaded(store.state), reducer: reducer)
        #expect(loaded.state == store.state)
        let outline = String(decoding: try JSONEncoder().encode(loaded.state.archive.outline), as: UTF8.self)
        #expect(outline.contains(#""moved":[{"#))
        loaded.send(.undoAndPopCurrentScope)
        #expect(loaded.state.present.items == [0] && loaded.state.error == nil)
        #expect(loaded.state.location(of: "t") == .present)
        #expect(loaded.state.tags().undo == [nil, "t"])
    }

    /// Found by the randomized suite (seed 9): a state whose present was re-spelled
    /// (`"e\u{301}"` for `"é"`, equal, so no step) saved the reducer's spelling, which the
    /// steps, made from the other one, refused after loading: the scope could not be popped.
    @Test("A present re-spelled without a step still pops its scope after loading")
    func reSpelledPresent() throws {
        struct Named: Versionable, Equatable, Sendable, Codable {
            var name = ""
            func addReversions(into reverter: inout some Reverter<Named>) {
                reverter.appendReversion(at: \.name)
            }
        }
        let reducer = Reduce<Named, String> { state, name in
            state.name = name
            return .none
        }.undoable()
        let store = Store(initialState: UndoableState(Named()), reducer: reducer)
        store.send(.pushNewScope)
        store.send(.action("\u{E9}"))
        store.send(.action("e\u{301}"))
        #expect(store.state.undoCount == 1)
        let loaded = Store(initialState: try reloaded(store.state), reducer: reducer)
        loaded.send(.popCurrentScope)
        #expect(loaded.state.error == nil && loaded.state.scopeLevel == 0)
        loaded.send(.undo)
        #expect(loaded.state.present.name == "" && loaded.state.error == nil)
    }

    @Test("After an action, the changes to save are the new step and the outline")
    func changesSince() {
        let reducer = Cursor().undoable(UndoableOptions(historyLimit: 2))
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: reducer)
        var saved = store.state.archive
        store.send(.action(.increment))
        var changes = store.state.archive.changes(since: saved)
        #expect(changes.savedSteps.map(\.version) == [store.state.currentVersionID])
        #expect(changes.removedVersions.isEmpty)
        saved = store.state.archive
        store.send(.undo)
        changes = store.state.archive.changes(since: saved)
        #expect(changes.savedSteps.isEmpty && changes.removedVersions.isEmpty)
        store.send(.redo)
        store.send(.action(.increment))
        saved = store.state.archive
        let oldest = saved.steps.first!.version
        store.send(.action(.increment))
        changes = store.state.archive.changes(since: saved)
        #expect(changes.savedSteps.count == 1)
        #expect(changes.removedVersions == [oldest])
    }

    @Test("An archive loaded with a present it was not saved with is refused")
    func wrongPresent() throws {
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: Cursor().undoable())
        store.send(.action(.increment))
        store.send(.action(.increment))
        #expect(throws: HistoryArchiveError.self) {
            try UndoableState(present: Cursor.State(items: [7]), archive: store.state.archive)
        }
        let loaded = try UndoableState(present: store.state.present, archive: store.state.archive)
        #expect(loaded == store.state)
    }

    @Test("A damaged archive is refused with a message, never loaded in part")
    func damagedArchive() throws {
        let store = Store(initialState: UndoableState(Cursor.State()), reducer: Cursor().undoable())
        for _ in 0..<3 { store.send(.action(.increment)) }
        store.send(.pushNewScope)
        store.send(.action(.increment))
        let json = try #require(String(data: JSONEncoder().encode(store.state), encoding: .utf8))
        let damaged = [
            json.replacingOccurrences(of: "\"parent\":2", with: "\"parent\":9"),
            json.replacingOccurrences(of: "\"scope\":1", with: "\"scope\":4"),
            json.replacingOccurrences(of: "\"format\":1", with: "\"format\":99"),
            json.replacingOccurrences(of: "\"current\":3", with: "\"current\":2"),
            String(json.dropLast(9)),
        ]
        for text in damaged {
            #expect(text != json)
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(UndoableState<Cursor.State>.self, from: Data(text.utf8))
            }
        }
    }

    enum Before {
        struct Todo: Versionable, Equatable, Sendable, Codable {
            var title: String
            func addReversions(into reverter: inout some Reverter<Todo>) {
                reverter.appendReversion(at: \.title)
            }
        }
    }

    enum After {
        /// `Before.Todo` with a property added, read as absent from older files.
        struct Todo: Versionable, Equatable, Sendable, Codable {
            var title: String
            var priority = 0

            init(title: String, priority: Int = 0) {
                self.title = title
                self.priority = priority
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                title = try container.decode(String.self, forKey: .title)
                priority = try container.decodeIfPresent(Int.self, forKey: .priority) ?? 0
            }

            func addReversions(into reverter: inout some Reverter<Todo>) {
                reverter.appendReversion(at: \.title)
                reverter.appendReversion(at: \.priority)
            }
        }
    }

    @Test("A history saved before the type gained a property loads, and undoes")
    func addedProperty() throws {
        let reducer = Reduce<Before.Todo, String> { todo, title in
            todo.title = title
            return .none
        }.undoable()
        let store = Store(initialState: UndoableState(Before.Todo(title: "a")), reducer: reducer)
        store.send(.action("b"))
        store.send(.action("c"))
        store.send(.undo)
        let data = try JSONEncoder().encode(store.state)
        let loaded = try JSONDecoder().decode(UndoableState<After.Todo>.self, from: data)
        #expect(loaded.present == After.Todo(title: "b") && loaded.undoCount == 1 && loaded.redoCount == 1)
        let later = Reduce<After.Todo, Int> { todo, priority in
            todo.priority = priority
            return .none
        }.undoable()
        let reopened = Store(initialState: loaded, reducer: later)
        reopened.send(.redo)
        #expect(reopened.state.present == After.Todo(title: "c"))
        reopened.send(.action(2))
        reopened.send(.undo(to: .steps(3)))
        #expect(reopened.state.present == After.Todo(title: "a") && reopened.state.error == nil)
    }

    @Test("One title edit in a 10,000-item list saves in a few hundred bytes")
    func stepSize() throws {
        struct Item: Identifiable, Versionable, Equatable, Sendable, Codable {
            var id: Int
            var title: String
            func addReversions(into reverter: inout some Reverter<Item>) {
                reverter.appendReversion(at: \.title)
            }
        }
        struct List: Versionable, Equatable, Sendable, Codable {
            var items: TreeArray<Item>
            func addReversions(into reverter: inout some Reverter<List>) {
                reverter.appendReversion(at: \.items)
            }
        }
        var state = UndoableState(List(items: TreeArray((0..<10_000).map { Item(id: $0, title: "item \($0)") })))
        let reducer = Reduce<List, String> { list, title in
            list.items[4_321].title = title
            return .none
        }.undoable()
        let store = Store(initialState: state, reducer: reducer)
        store.send(.action("renamed"))
        state = store.state
        let step = try #require(state.archive.steps.last)
        let bytes = try JSONEncoder().encode(step).count
        #expect(bytes < 400, "a one-title step takes \(bytes) bytes")
        #expect(try reloaded(state) == state)
    }
}
