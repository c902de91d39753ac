import Foundation
import Revertible
import UndoableReducer

/// Where a list and its history live: an SQLite file (``TodoDataFile``, the default) or a
/// PostgreSQL server (``TodoServerStore``, `--database`). The commands (``TodoSession``) are
/// written once, against this.
public protocol TodoStorage: AnyObject {
    /// The file's path or the database's address, for messages.
    var displayName: String { get }
    /// Whether other people share the list (a server): `list` then shows the items' ids.
    var isShared: Bool { get }
    /// The most undo steps kept; older ones are dropped on the next write.
    var historyLimit: Int { get }
    /// The list only.
    func readList() throws(TodoError) -> TodoList
    /// The list with the caller's history.
    func readState() throws(TodoError) -> UndoableState<TodoList>
    /// Runs `body` on the list with the caller's history, whose steps `body` may read one at
    /// a time (`history` lists them as it reads them): on a server, all of it read in one
    /// snapshot, however long `body` takes. `body` runs once, never again for a retry, as
    /// what it printed is out.
    func readingState<R>(_ body: (UndoableState<TodoList>) throws(TodoError) -> R) throws(TodoError) -> R
    /// Runs `change` on a store holding the current state, in one transaction, and writes
    /// what it changed; if `change` throws, nothing is written.
    ///
    /// - Parameters:
    ///   - nearTheEnds: The command reads and writes only items near the ends of the list.
    ///   - appliesSavedSteps: The command moves through the history (undo, redo, goto,
    ///     rollback).
    ///   - onConflict: What a move does with a change someone else overwrote since.
    func modify<Result>(
        nearTheEnds: Bool,
        appliesSavedSteps: Bool,
        onConflict: ConflictPolicy,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result
    /// The open scope's level (0 outside any), or `nil` if it cannot be read.
    func openScopeLevel() -> Int?
    /// Everyone's steps with their authors, oldest first, for `todo history` (a store with
    /// one history returns `nil`, and `history` shows that history's tree).
    func everyonesSteps() throws(TodoError) -> [AuthoredStep]?
    /// The ids of the items as the caller last listed them, in order, if the store keeps
    /// them: a position is checked against it (see ``TodoSession``).
    var lastListing: [UUID]? { get }
    /// Whose history the commands use, on a shared list; `nil` on a file.
    var author: String? { get }
    /// The parts the last move skipped because someone else changed them since.
    var lastSkipped: [SkippedPart] { get }
    /// Why `undo` cannot go further back than the caller's oldest step, when that is not
    /// the history limit or the history's start: on a server, what they did before their
    /// history was rebased at the log's horizon. Read during a command.
    var horizonNote: String? { get }
    /// Remembers `list` as the caller's last listing, if the store keeps one.
    func noteListed(_ list: TodoList) throws(TodoError)
    /// Reads everything a command may ever read (a command reads only what it needs) and
    /// checks it: what `todo check` prints, or the damage it found as an error.
    func check() throws(TodoError) -> String
}

/// One step of someone's history, for `todo history` on a shared list.
public struct AuthoredStep: Sendable {
    /// Whose history the step is in (the name of `--as`).
    public var author: String
    /// The step, as that history reports it.
    public var step: HistoryStep
    /// Whether the step is undone (plain `redo` by its author would replay it).
    public var undone: Bool
}

extension TodoDataFile: TodoStorage {
    public var displayName: String { path }

    public var isShared: Bool { false }

    public func modify<Result>(
        nearTheEnds: Bool,
        appliesSavedSteps: Bool,
        onConflict: ConflictPolicy,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result {
        // One history, one writer: nobody else's change can be overwritten here, so the
        // policy never applies.
        try modify(nearTheEnds: nearTheEnds, appliesSavedSteps: appliesSavedSteps, change)
    }

    // Here the steps are read after the read transaction, each read its own: holding one
    // open while a listing is printed (into a pager, say) would hold back every writer, the
    // file being in rollback-journal mode. So another `todo` may write meanwhile: a step it
    // dropped is then missing from the listing, or no longer fits the outline read before.
    // That is the file moving on, not damage, and the listing is not whole: said so, after
    // the listing as after a failed one.
    public func readingState<R>(_ body: (UndoableState<TodoList>) throws(TodoError) -> R) throws(TodoError) -> R {
        let state = try readState()
        let loadedVersion = cache?.dataVersion
        let result: Result<R, TodoError>
        do {
            result = .success(try body(state))
        } catch {
            result = .failure(error)
        }
        if let loadedVersion, let connection, let now = try? currentDataVersion(connection), now != loadedVersion {
            throw TodoError(.dataFile, "\(path) changed while its history was read (another todo wrote to it), so what was shown may be incomplete; run the command again")
        }
        return try result.get()
    }

    public func everyonesSteps() throws(TodoError) -> [AuthoredStep]? { nil }

    public var lastListing: [UUID]? { nil }

    public var author: String? { nil }

    public var lastSkipped: [SkippedPart] { [] }

    public var horizonNote: String? { nil }

    // One writer at a time, and positions reported by every command: a file's positions
    // are not checked against a listing.
    public func noteListed(_ list: TodoList) throws(TodoError) {}
}
