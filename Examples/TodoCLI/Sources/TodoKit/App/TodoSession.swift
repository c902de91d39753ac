import Foundation
import Revertible
import UndoableReducer

/// Runs commands against one data file and says what happened.
///
/// Every change goes through ``TodoStorage/modify(nearTheEnds:appliesSavedSteps:onConflict:_:)``:
/// the store is locked (or a transaction begun), read, the command checked against the
/// current list, sent to the store as actions of the `undoable` todo reducer, and the result
/// written, all before the confirming line is returned. A command that fails a check throws
/// before anything is sent, so it changes nothing.
public final class TodoSession {
    /// The SQLite file or the server the commands work on.
    public let storage: any TodoStorage
    let style: Style

    public init(storage: any TodoStorage, style: Style) {
        self.storage = storage
        self.style = style
    }

    /// A session on an SQLite file.
    public convenience init(dataFile: TodoDataFile, style: Style) {
        self.init(storage: dataFile, style: style)
    }

    /// Runs `command` and returns its output, ending with a newline (empty for `quit`).
    public func run(_ command: Command) throws(TodoError) -> String {
        switch command {
        case let .list(filter, json, ids):
            let list = try storage.readList()
            try storage.noteListed(list)
            return json ? ListView.json(list, filter: filter) : ListView.text(list, filter: filter, style: style, ids: ids || storage.isShared)
        case let .history(json, mine):
            var shown = ""
            try history(json: json, mine: mine) { shown += $0; return true }
            return shown
        case .export:
            return ExportDocument(try storage.readList()).json()
        case .check:
            return try storage.check() + "\n"
        case .help:
            return HelpText.text
        case .quit:
            return ""
        case .watch:
            // TodoApp runs `watch` itself (WatchCommand): it has no single output to return.
            throw .usage("watch runs only as a command of its own: todo watch")
        case .undo(_, _, true), .redo(_, _, true):
            let message = try storage.modify(nearTheEnds: true, appliesSavedSteps: true, onConflict: command.conflictPolicy) { (store) throws(TodoError) in
                try change(command, in: store)
            }
            return encodeJSON(MoveReport(message: message, author: storage.author, skipped: storage.lastSkipped))
        case .add, .undo, .redo, .tag:
            // These read and write near the ends of the list, usually: see `modify`.
            return try storage.modify(nearTheEnds: true, appliesSavedSteps: command.appliesSavedSteps, onConflict: command.conflictPolicy) { (store) throws(TodoError) in
                try change(command, in: store) + "\n"
            }
        default:
            return try storage.modify(nearTheEnds: false, appliesSavedSteps: command.appliesSavedSteps, onConflict: command.conflictPolicy) { (store) throws(TodoError) in
                try change(command, in: store) + "\n"
            }
        }
    }

    /// Runs `command`, handing its output to `write` as it is made: `history` a chunk at a
    /// time as it reads the steps, every other command at once. `write` returns whether the
    /// reader takes more; a listing stops reading once it does not.
    public func run(_ command: Command, writing write: @escaping (String) -> Bool) throws(TodoError) {
        if case let .history(json, mine) = command {
            try history(json: json, mine: mine, writing: write)
        } else {
            _ = write(try run(command))
        }
    }

    /// `todo history`: the caller's history, listed as it is read, or everyone's steps on a
    /// shared list.
    ///
    /// A step that cannot be read ends the listing where it is met, and the command fails
    /// with the damage named: the lines before it are out already, as with any listing that
    /// streams (`git log` on a damaged object). Damage found before the first line (the
    /// outline, the list of the scope's versions) prints nothing.
    private func history(json: Bool, mine: Bool, writing write: @escaping (String) -> Bool) throws(TodoError) {
        if !mine, let steps = try storage.everyonesSteps() {
            _ = write(json ? HistoryView.json(everyone: steps) : HistoryView.text(everyone: steps, style: style))
            return
        }
        try storage.readingState { (state) throws(TodoError) in
            var output = ChunkedOutput(write)
            if json {
                HistoryView.json(state, limit: storage.historyLimit, to: &output)
            } else {
                // Read with the state: a history rebased at the server log's horizon is
                // empty, and without the reason it looks lost.
                HistoryView.text(state, limit: storage.historyLimit, style: style, horizonNote: storage.horizonNote, to: &output)
            }
            // A step that failed to read would otherwise be left out of the listing, unsaid.
            if case let .unreadableStep(_, damage)? = state.historyReadFailure {
                throw TodoError(.dataFile, "\(storage.displayName): the history is damaged (\(HistoryMismatch.readable(damage.message))); run \"todo check\"")
            }
        }
    }

    /// `undo --json` and `redo --json`: what was said, whose history moved, and the parts
    /// skipped because someone else changed them since (always empty on a file).
    struct MoveReport: Encodable {
        var message: String
        var author: String?
        var skipped: [SkippedPart]
    }

    /// The line that says a scope is still open: after every one-shot command run inside
    /// one, and at the end of a shell or a script that leaves one open.
    public static func openScopeNote(level: Int) -> String {
        "todo: note: a scope opened by \"begin\" is still open (level \(level)); later commands join it until \"commit\" or \"rollback\""
    }

    /// The current scope level, for the shell's mode; 0 if the file cannot be read (the next
    /// command will say why).
    public func scopeLevel() -> Int {
        storage.openScopeLevel() ?? 0
    }

    /// The question to ask before running `command` in the interactive shell, if it
    /// destroys work: `clear` (many items at once) and `rollback` (not undoable).
    public func confirmationQuestion(for command: Command) -> String? {
        switch command {
        case .clear:
            let count = (try? storage.readList().items.filter(\.isDone).count) ?? 0
            return count == 0 ? nil : "Remove \(count) done item\(count == 1 ? "" : "s")?"
        case .rollback:
            guard let state = try? storage.readState(), state.scopeLevel > 0, state.undoCount > 0 else { return nil }
            return "Abandon \(state.undoCount) change\(state.undoCount == 1 ? "" : "s") made since \"begin\"?"
        default:
            return nil
        }
    }

    /// Checks `command` against the store's state, sends it, and returns the confirming line.
    private func change(_ command: Command, in store: TodoStore) throws(TodoError) -> String {
        let list = store.state.present
        switch command {
        case let .add(title):
            // The id is made here, not in the reducer, so the saved history replays exactly.
            store.send(.action(.add(id: UUID(), title: title)))
            return "Added \(store.state.present.items.count): \(quoted(title))"

        case let .done(reference):
            return try setDone(true, at: reference, in: store)

        case let .undone(reference):
            return try setDone(false, at: reference, in: store)

        case let .edit(reference, title):
            let (item, position) = try self.item(at: reference, in: list)
            guard item.title != title else { return "Item \(position) already has that title" }
            store.send(.action(.edit(id: item.id, from: item.title, to: title)))
            return "Edited \(position): \(quoted(item.title)) → \(quoted(title))"

        case let .remove(reference):
            let (item, position) = try self.item(at: reference, in: list)
            store.send(.action(.remove(id: item.id, title: item.title)))
            return "Removed \(position): \(quoted(item.title))"

        case let .move(reference, destination):
            let (item, position) = try self.item(at: reference, in: list)
            guard destination <= list.items.count else {
                throw .badInput("cannot move to position \(destination): the list has \(list.items.count) item\(list.items.count == 1 ? "" : "s")")
            }
            guard destination != position else { return "Item \(position) is already at position \(destination)" }
            store.send(.action(.move(id: item.id, title: item.title, from: position - 1, to: destination - 1)))
            return "Moved \(quoted(item.title)) from \(position) to \(destination)"

        case .clear:
            let done = list.items.filter(\.isDone).map(\.id)
            guard !done.isEmpty else { return "No done items to clear" }
            store.send(.action(.clear(ids: done)))
            return "Cleared \(done.count) done item\(done.count == 1 ? "" : "s") (undo brings them back)"

        case let .undo(target, strict, _):
            return try step(to: target, undoing: true, strict: strict, in: store)

        case let .redo(target, strict, _):
            return try step(to: target, undoing: false, strict: strict, in: store)

        case let .tag(name):
            let tag = HistoryTag(name)
            let location = store.state.location(of: tag)
            if location == .present { return "The present is already tagged \(quoted(name))" }
            // A version may have several tags: say so, so the other tags are not thought gone.
            let others = store.state.currentVersionTags.map { quoted($0.description) }
            store.send(.tag(tag))
            let kept = others.isEmpty ? "" : " (it keeps its tag\(others.count == 1 ? "" : "s") \(others.joined(separator: ", ")))"
            return (location == .unknown ? "Tagged the present \(quoted(name))" : "Moved tag \(quoted(name)) to the present") + kept

        case let .goto(destination):
            return try move(to: destination, in: store)

        case .begin:
            store.send(.pushNewScope)
            return "Began a scope (level \(store.state.scopeLevel)): changes until \"commit\" become one undo step; \"rollback\" abandons them"

        case .commit:
            let (steps, changes) = try openScopeChanges(store.state, verb: "commit")
            let outside = stepsOutside(store.state)
            store.send(.popCurrentScope)
            try checkHistoryError(store)
            let dropped = droppedByLimit(expected: outside + (changes == 0 ? 0 : 1), in: store.state)
            if changes == 0 {
                return (steps == 0
                    ? "Committed an empty scope (no undo step)"
                    : "Committed a scope whose changes cancel out (no undo step)") + dropped
            }
            return "Committed \(changes) change\(changes == 1 ? "" : "s") as one undo step" + dropped

        case .rollback:
            let (steps, changes) = try openScopeChanges(store.state, verb: "roll back")
            let outside = stepsOutside(store.state)
            store.send(.undoAndPopCurrentScope)
            try checkHistoryError(store)
            let dropped = droppedByLimit(expected: outside, in: store.state)
            if changes == 0 {
                return (steps == 0 ? "Rolled back an empty scope" : "Rolled back a scope whose changes cancel out") + dropped
            }
            return "Rolled back \(changes) change\(changes == 1 ? "" : "s")" + dropped

        case let .importJSON(path):
            let data: Data
            do {
                data = try readRegularFile(path)
            } catch {
                throw .badInput(error.reason)
            }
            let items = try ExportDocument.items(from: data, path: path)
            store.send(.action(.replaceAll(items: items, source: (path as NSString).lastPathComponent)))
            return "Imported \(items.count) item\(items.count == 1 ? "" : "s") from \(path) (undo brings back the list before)"

        case .list, .history, .help, .quit, .export, .watch, .check:
            preconditionFailure("\(command) changes nothing and is handled by run(_:)")
        }
    }

    private func setDone(_ isDone: Bool, at reference: ItemReference, in store: TodoStore) throws(TodoError) -> String {
        let (item, position) = try self.item(at: reference, in: store.state.present)
        guard item.isDone != isDone else {
            return "Item \(position) is already \(isDone ? "done" : "not done"): \(quoted(item.title))"
        }
        store.send(.action(.setDone(id: item.id, title: item.title, isDone: isDone)))
        return "\(isDone ? "Done" : "Not done") \(position): \(quoted(item.title))"
    }

    /// The item a reference names, and its 1-based position.
    ///
    /// A position is checked against the caller's last `list`, where the store keeps it (a
    /// shared list on a server): if someone else's change moved another item there since,
    /// the command is refused rather than applied to an item the caller never saw there.
    private func item(at reference: ItemReference, in list: TodoList) throws(TodoError) -> (TodoItem, Int) {
        switch reference {
        case let .id(prefix):
            let matches = list.items.enumerated().filter { ShortID.matches(prefix, $0.element.id) }
            guard let first = matches.first else {
                throw .badInput("there is no item with id \(CommandParser.shown(prefix)) (\"todo list\" shows the ids)")
            }
            guard matches.count == 1 else {
                throw .badInput("the id \(CommandParser.shown(prefix)) matches \(matches.count) items: give more of it")
            }
            return (first.element, first.offset + 1)
        case let .position(position):
            let count = list.items.count
            guard position <= count else {
                throw .badInput(count == 0
                    ? "there is no item \(position): the list is empty"
                    : "there is no item \(position): the list has \(count) item\(count == 1 ? "" : "s")")
            }
            let item = list.items[position - 1]
            if let listing = storage.lastListing, !(position <= listing.count && listing[position - 1] == item.id) {
                let ids = ShortID.ids(for: list.items)
                guard position <= listing.count else {
                    throw .badInput("item \(position) (\(quoted(item.title)), id \(ids[position - 1])) was not in your last list: the list changed since; use the id or run \"todo list\" again")
                }
                if let now = list.index(of: listing[position - 1]) {
                    throw .badInput("item \(position) of your last list is now item \(now + 1) (\(quoted(list.items[now].title))): the list changed since; use its id \(ids[now]) or run \"todo list\" again")
                }
                throw .badInput("item \(position) of your last list is gone (removed since); run \"todo list\" again")
            }
            return (item, position)
        }
    }

    /// Undoes (or redoes) to `target` and says what it took back (or replayed).
    ///
    /// The history resolves a tag and refuses one the move cannot reach (see ``reason(_:undoing:)``);
    /// the session only caps a count at the steps there are, as asking for more than there
    /// are is no error here.
    ///
    /// A move that leaves the list as it was (someone else changed, or removed, all that its
    /// steps would change) says so instead of "Undid", and with `strict` is refused.
    private func step(to target: HistoryDestination, undoing: Bool, strict: Bool = false, in store: TodoStore) throws(TodoError) -> String {
        let before = store.state
        var target = target
        var ending = ""
        if case let .steps(requested) = target {
            let available = undoing ? before.undoCount : before.redoCount
            // At the bottom of a history rebased at the server log's horizon, the reason.
            let horizon = undoing && before.scopeLevel == 0 ? storage.horizonNote : nil
            guard available > 0 else {
                if !undoing { return "Nothing to redo" }
                if let horizon { return "Nothing to undo: \(horizon)" }
                return before.scopeLevel > 0 ? "Nothing to undo in this scope (\"rollback\" abandons it)" : "Nothing to undo"
            }
            if requested > available {
                target = .steps(available)
                ending = horizon.map { " (all there were; \($0))" } ?? " (all there were)"
            }
        }
        store.send(undoing ? .undo(to: target) : .redo(to: target))
        if let error = store.state.error {
            throw .badInput(reason(error, undoing: undoing))
        }
        let steps = undoing ? before.undoCount - store.state.undoCount : before.redoCount - store.state.redoCount
        if case let .tag(tag) = target {
            let name = quoted(tag.description)
            guard steps > 0 else { return "Already at tag \(name)" }
            ending = undoing ? " back to \(name)" : " up to \(name)"
        }
        let descriptions = StepDescriptions(before, undo: undoing ? steps : 0, redo: undoing ? 0 : steps)
        let labels = undoing ? Array(descriptions.undo.suffix(steps).reversed()) : Array(descriptions.redo.prefix(steps))
        let verb = undoing ? "Undid" : "Redid"
        // Every part skipped or gone for someone else's change: the history moved past the
        // step, but the list is as it was, and saying "Undid" would claim what did not happen.
        if steps > 0, OtherWriters.sameItems(before.present, store.state.present) {
            let what = labels.joined(separator: "; ")
            // With a conflict the store refuses it, naming each part and who changed it.
            if strict, store.state.lastConflicts.isEmpty {
                throw .badInput("refused: someone else changed or removed all that this would change (\(what)); nothing was changed")
            }
            return "\(verb) nothing of: \(what) (someone else changed or removed all of it since; the list is unchanged)"
        }
        return steps == 1 && ending.isEmpty
            ? "\(verb): \(labels[0])"
            : "\(verb) \(steps) step\(steps == 1 ? "" : "s")\(ending): \(labels.joined(separator: "; "))"
    }

    /// Moves to `destination` through the tree of the current scope: up to the nearest common
    /// ancestor and down its branch, all or nothing.
    ///
    /// `earlier` and `later` past either end stop there, as Vim's do, and say so: moving
    /// as far as one can is what was asked, not an error.
    private func move(to destination: HistoryDestination, in store: TodoStore) throws(TodoError) -> String {
        let before = store.state.currentVersionID
        var destination = destination
        var stopped = ""
        if case let .earlier(requested) = destination, case let available = versionsAround(store.state).earlier, requested > available {
            guard available > 0 else { return "Already at the earliest version of this scope, \(before): \(presentLabel(store.state))" }
            destination = .earlier(available)
            stopped = " (the earliest version of this scope: \(available) of the \(requested) asked for)"
        }
        if case let .later(requested) = destination, case let available = versionsAround(store.state).later, requested > available {
            guard available > 0 else { return "Already at the latest version of this scope, \(before): \(presentLabel(store.state))" }
            destination = .later(available)
            stopped = " (the latest version of this scope: \(available) of the \(requested) asked for)"
        }
        store.send(.move(to: destination))
        if let error = store.state.error {
            throw .badInput(reason(error, undoing: nil))
        }
        let now = store.state.currentVersionID
        guard now != before else { return "Already at \(now): \(presentLabel(store.state))" }
        return "Went to \(now): \(presentLabel(store.state))\(stopped)"
    }

    /// How many versions of the current scope were made before the present, and after it.
    private func versionsAround(_ state: UndoableState<TodoList>) -> (earlier: Int, later: Int) {
        let order = state.tree().map(\.version)
        let index = order.firstIndex(of: state.currentVersionID).map { $0 + 1 } ?? 0
        return (index, order.count - index)
    }

    /// The label of the step that made the present, or "(start)".
    private func presentLabel(_ state: UndoableState<TodoList>) -> String {
        let now = state.currentVersionID
        return state.nearestSteps(undo: 1, redo: 0).undo.last.map { $0.version == now ? ($0.label ?? "change") : "(start)" } ?? "(start)"
    }

    /// What a refused move means, in the words of the commands: `undoing` is `nil` for
    /// `goto`, `earlier` and `later`, which reach every branch of the scope.
    private func reason(_ error: HistoryError, undoing: Bool?) -> String {
        switch error {
        case let .unknownVersion(version):
            return "there is no version \(version) in this scope (\"todo history\" shows them)"
        case let .versionOutOfReach(version):
            return "version \(version) is outside the open scope: commit or roll back first"
        case let .unknownTag(tag):
            return "unknown tag \(quoted(tag.description)) (\"todo history\" shows the tags)"
        case let .tagOutOfReach(tag, location):
            let name = quoted(tag.description)
            switch location {
            case .behind, .ahead:
                guard let undoing else { break }
                let (verb, other) = undoing ? ("undo", "redo") : ("redo", "undo")
                return "tag \(name) is \(undoing ? "ahead of" : "behind") the present: use \"\(other) \(tag)\", not \"\(verb)\""
            case .onAnotherBranch:
                return "tag \(name) is on another branch of the history"
            default:
                break
            }
            return "tag \(name) is outside the open scope: commit or roll back first"
        default:
            return "the history could not be applied (\(HistoryMismatch.readable(error.description))); nothing was changed"
        }
    }

    /// The open scope's steps, and the changes committing it would squash into one step
    /// (none when they cancel out); throws if no scope is open.
    ///
    /// The changes are counted by popping the scope on a copy of the state, not from its
    /// steps: the limit may have folded the oldest steps into the scope's start, and their
    /// changes are the scope's too, whether it is committed or rolled back.
    private func openScopeChanges(_ state: UndoableState<TodoList>, verb: String) throws(TodoError) -> (steps: Int, changes: Int) {
        guard state.scopeLevel > 0 else {
            throw .badInput("no open scope to \(verb) (start one with \"begin\")")
        }
        var committed = state
        let previous = state.steps(inScopeLevel: state.scopeLevel - 1)?.undo.last?.version
        _ = TodoReducer.withUndo(historyLimit: storage.historyLimit).reduce(into: &committed, action: .popCurrentScope)
        guard committed.error == nil, let squashed = committed.steps().undo.last, squashed.version != previous else {
            return (state.undoCount, 0)
        }
        return (state.undoCount, squashed.changeCount)
    }

    /// The undo steps of the scope around the open one: what `undo` reaches once the open
    /// scope is committed or rolled back, before the limit applies.
    private func stepsOutside(_ state: UndoableState<TodoList>) -> Int {
        state.steps(inScopeLevel: state.scopeLevel - 1)?.undo.count ?? 0
    }

    /// What to add to the line of `commit` or `rollback` when the history limit dropped steps
    /// of the scope around the closed one (`expected` steps would be there without it): a
    /// limit lower than the scope's size keeps the steps before the scope until it ends, and
    /// ending it may then cost them, which the user should hear.
    private func droppedByLimit(expected: Int, in state: UndoableState<TodoList>) -> String {
        let dropped = expected - state.undoCount
        guard dropped > 0 else { return "" }
        return "; the history limit (\(storage.historyLimit)) dropped the \(dropped == 1 ? "oldest step" : "\(dropped) oldest steps") before it"
    }

    /// Throws if the last history command failed; the change is then not written.
    private func checkHistoryError(_ store: TodoStore) throws(TodoError) {
        if let error = store.state.error {
            throw .badInput("the history could not be applied (\(HistoryMismatch.readable(error.description))); nothing was changed")
        }
    }
}
