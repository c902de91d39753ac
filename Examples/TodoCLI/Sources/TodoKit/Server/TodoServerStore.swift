import Foundation
import Revertible
import UndoableReducer

/// A todo list on a PostgreSQL server, shared by several people, each with their own history
/// (`todo --database postgresql://... --as NAME`).
///
/// Every command is one `SERIALIZABLE` transaction: the list and the caller's history are
/// read, the command run, and what it changed written, or nothing is. The server refuses a
/// transaction that met another one's writes (SQLSTATE 40001, or 40P01 for a deadlock), and
/// it is run again from the start, up to ``maximumAttempts`` times: so no acknowledged change
/// is ever lost, and none is applied to a list it was not checked against.
///
/// Each person's history holds their own steps only. What others changed since reaches it
/// without a step (it is absorbed, see ``OtherWriters``), so `undo` undoes the caller's own
/// last change. A move through the history (undo, redo, goto, rollback) runs under the
/// engine's `.skip` policy: what an absorbed change wrote since a step stays, and the
/// engine's `lastConflicts` say what; each such part is reported on standard error with who
/// changed it, or with `--strict` the move is refused.
public final class TodoServerStore: TodoStorage {
    /// The connection string as given: a `postgresql://` URI or `key=value` pairs.
    public let conninfo: String
    /// Whose history the commands use.
    public let person: String
    public var author: String? { person }
    /// The most undo steps each person's history keeps.
    public let historyLimit: Int
    /// How many list versions `item_log` keeps, whatever anyone still needs: the horizon.
    /// A person whose history stands further back has it rebased onto the list as it is
    /// (``horizonVersion``); their listing of a version that far back is forgotten.
    public let logHorizon: Int64
    /// The horizon when `TODO_LOG_HORIZON` does not say: enough for weeks of a team's work,
    /// and a log of a few megabytes.
    public static let defaultLogHorizon: Int64 = 10_000
    /// The list version the caller's history was rebased onto, when it lay beyond the
    /// horizon (read by each command): their steps before it can no longer be undone.
    public private(set) var horizonVersion: Int64?
    let reducer: Undoable<TodoReducer>
    /// The reducer moves through the history run with: what someone else wrote since a
    /// step is left in place (`.skip`), and the engine's `lastConflicts` say what; `--strict`
    /// then refuses the whole move from that report, so both speak of items, not structs.
    let movingReducer: Undoable<TodoReducer>
    /// Called with a line for standard error (the parts a move skipped).
    let notice: (String) -> Void
    private var connection: PostgresConnection?
    private var prepared = false
    /// The caller's last listing, as read in the current transaction.
    public private(set) var lastListing: [UUID]?
    /// What the last move skipped, with authors, for `--json` and the tests.
    public private(set) var lastSkipped: [SkippedPart] = []
    /// The caller's history as this process last read or wrote it.
    private var cachedState: UndoableState<TodoList>?
    /// The list's version as `readList` last read it, for `noteListed`.
    private var lastReadVersion: Int64?
    /// The list with its order keys as this process last read or committed it, and the
    /// list's version then. A shell runs many commands: while the version is unchanged
    /// (every write bumps it, `todo`'s own and, through the schema's trigger, anyone's in
    /// psql), the next command takes the list from here instead of reading every row again.
    private var knownList: KnownList?
    /// The caller's history as this process's last command committed it: the next command
    /// starts from it, instead of decoding the outline and reading the steps next to the
    /// present again, while the caller's row still holds what that command wrote. Taken by
    /// the command that uses it, so an attempt that fails leaves none behind.
    private var keptHistory: KeptHistory?
    /// How many rows of `steps` this store has read, in all: a command reads the rows of the
    /// steps it crosses, not the caller's whole history, which the tests check by this count.
    private(set) var stepRowsRead = 0
    /// How many rows of `items` this store has read whole (``loadItems(_:)``), in all: a
    /// command after this process's own last one reads none, which the tests check.
    private(set) var itemRowsRead = 0
    /// How many rows of `listings` this store has read and written, in all: a command after
    /// a stale `list` reads and writes what its change needs, which the tests check by these.
    private(set) var listingRowsRead = 0
    private(set) var listingRowsWritten = 0
    /// Told how many of a command's written items are done, as it writes them, for the
    /// progress line of long work (see ``ProgressLine``); `nil` says nothing.
    public var progress: ((_ done: Int, _ total: Int) -> Void)?

    /// The advisory lock `todo` writers take, one at a time ("todw" in ASCII); the session
    /// holding it ends with the process, so a killed `todo` never leaves it taken.
    static let writersLock = "1953457271"

    /// How often a transaction the server refused as conflicting is run again.
    static let maximumAttempts = 30

    /// How long a command waits for a lock another connection holds (the writers' advisory
    /// lock, or a table someone locked in psql) before it gives up: `TODO_LOCK_TIMEOUT`.
    public let lockTimeout: Duration
    /// Called once per command that has waited ``lockAnnounceAfter`` for a lock.
    private let onWait: () -> Void
    /// When a wait for a lock is said on standard error, as on a file (`BusyWait`).
    static let lockAnnounceAfter: Duration = .seconds(1)
    /// The session's `lock_timeout` as last set, in milliseconds (`nil`: not set on this
    /// connection yet).
    private var sessionLockTimeout: Int?

    /// A list at `conninfo`, used as `author`; nothing is connected until a command needs it.
    /// `source` names where `conninfo` came from, for messages that cannot show it. A lock
    /// another connection holds is waited for up to `lockTimeout`, with `onWait` called once
    /// a second into the wait, as on a file.
    public init(
        conninfo: String, author: String, historyLimit: Int, source: String = "--database",
        lockTimeout: Duration = TodoApp.defaultLockTimeout, onWait: @escaping () -> Void = {},
        notice: @escaping (String) -> Void = { _ in }, logHorizon: Int64 = TodoServerStore.defaultLogHorizon
    ) {
        self.logHorizon = max(1, logHorizon)
        self.conninfo = conninfo
        self.source = source
        self.lockTimeout = lockTimeout
        self.onWait = onWait
        do {
            parsedConninfo = .success(try ConnectionString(parsing: conninfo))
        } catch {
            parsedConninfo = .failure(error)
        }
        person = author
        self.historyLimit = historyLimit
        self.notice = notice
        reducer = TodoReducer.withUndo(historyLimit: historyLimit)
        movingReducer = TodoReducer.withUndo(historyLimit: historyLimit, conflictPolicy: .skip)
    }

    public var isShared: Bool { true }

    public var horizonNote: String? {
        horizonVersion.map {
            "what you did before list version \($0) lies beyond the horizon (the server keeps what everyone changed for the last \(logHorizon) versions of the list, and more changes than that came between your last two commands), so it can no longer be undone; it stays in the list"
        }
    }

    /// The address without its secrets, for messages: the connection string as written with
    /// each password (in every spelling libpq accepts, see `ConnectionString`) as `***`.
    /// A string that cannot be read is not shown at all, since where its password is cannot
    /// be known; the option or variable that gave it is named instead.
    public var displayName: String {
        guard case .success(let parsed) = parsedConninfo else { return "the server of \(source)" }
        // A name libpq does not know may be the tail of a password left unquoted
        // (`password=Super Secret1=x`): such a string is not shown.
        if parsed.settings.contains(where: { !ConnectionString.knownKeys.contains($0.key) }) { return "the server of \(source)" }
        let shown = parsed.redacted
        // Redaction replaces exactly the spans the parser found; a secret still visible means
        // the parser and the text disagree, so nothing of the text is shown.
        if parsed.secrets.contains(where: { $0.count >= 4 && shown.contains($0) }) { return "the server of \(source)" }
        return PlainText.escaping(shown)
    }

    /// Where the connection string came from (`--database` or `TODO_DATABASE`), for messages
    /// that cannot show the string itself.
    public let source: String

    /// The connection string as libpq will read it, or why libpq will refuse it.
    let parsedConninfo: Result<ConnectionString, ConnectionString.Problem>

    /// The error for a connection string libpq would refuse, or `nil`: checked before
    /// connecting, because libpq's own message quotes the string, password and all.
    public static func conninfoProblem(_ conninfo: String, source: String) -> TodoError? {
        do {
            _ = try ConnectionString(parsing: conninfo)
            return nil
        } catch {
            return unreadable(error, source: source)
        }
    }

    private static func unreadable(_ problem: ConnectionString.Problem, source: String) -> TodoError {
        .usage("the \(source) value could not be parsed as a PostgreSQL connection string (key=value pairs or a postgresql:// URI): \(problem); it is not shown, as it may hold a password")
    }

    /// libpq's or the server's words for `error`, on one line, without any secret of the
    /// connection string: libpq quotes a host, a port or the whole string when it cannot use
    /// them, and a password may have ended up in any of those.
    func said(_ error: PostgresError) -> String {
        let line = Self.oneLine(error.message)
        guard case .success(let parsed) = parsedConninfo else { return "libpq's reason is not shown, as it might include the password" }
        return parsed.scrub(line)
    }

    // MARK: Reading

    public func readList() throws(TodoError) -> TodoList {
        let versions = try transaction(readOnly: true) { connection in
            try ListVersions(connection, known: self.knownList) { self.itemRowsRead += $0 }
        }
        lastReadVersion = versions.version
        knownList = versions.known
        return versions.current
    }

    public func readState() throws(TodoError) -> UndoableState<TodoList> {
        let state = try transaction(readOnly: true) { connection -> UndoableState<TodoList> in
            let versions = try ListVersions(connection)
            let list = versions.current
            // Read whole: the state outlives the transaction (`history --mine` reads its
            // steps inside one instead, see `readingState`).
            let own = try self.loadOwn(connection, versions, whole: true)
            let store = TodoStore(initialState: own.history?.state ?? UndoableState(list), reducer: self.reducer)
            OtherWriters.absorb(list, into: store)
            return store.state
        }
        cachedState = state
        return state
    }

    /// The caller's history opened as a command opens it, its steps read as `body` reaches
    /// them (`history --mine` prints each as it reads it), all in one read-only `REPEATABLE
    /// READ` transaction: every row `body` reads is of the snapshot the outline was read in,
    /// whatever others commit meanwhile, and writers are never held back by it (the snapshot
    /// only keeps old row versions from being vacuumed while the listing lasts).
    public func readingState<R>(_ body: (UndoableState<TodoList>) throws(TodoError) -> R) throws(TodoError) -> R {
        var ran = false
        var read: UndoableState<TodoList>?
        let result = try transaction(readOnly: true) { connection -> R in
            // Its output is out: a transaction refused at its COMMIT is not run again.
            guard !ran else {
                throw TodoError(.dataFile, "\(self.displayName): the server ended the read after it was printed; run the command again")
            }
            let versions = try ListVersions(connection)
            let own = try self.loadOwn(connection, versions, whole: false)
            let store = TodoStore(initialState: own.history?.state ?? UndoableState(versions.current), reducer: self.reducer)
            OtherWriters.absorb(versions.current, into: store)
            // Before anything is printed, a failure is the command's: the server's is run
            // again, damage next to the present said as a command says it.
            try self.checkReads(of: store.state, own.history?.rows)
            ran = true
            read = store.state
            do {
                let result = try self.typed { () throws(TodoError) in try body(store.state) }
                if let failure = own.history?.rows.serverFailure { throw self.serverError(failure) }
                return result
            } catch {
                // The library reports a read the server failed as a step that cannot be
                // read: said as the server's failure, not as damage of the history.
                if let failure = own.history?.rows.serverFailure { throw self.serverError(failure) }
                throw error
            }
        }
        cachedState = read
        return result
    }

    public func openScopeLevel() -> Int? {
        if let cachedState { return cachedState.scopeLevel }
        // From the outline alone when the steps are rows: every command asks, and decoding
        // the steps (an import's holds the whole list) would cost more than the command.
        let rows = try? transaction(readOnly: true) { connection in
            try connection.query("SELECT state FROM histories WHERE author = $1", [self.person])
        }
        guard let rows else { return nil }
        // Someone new: their history starts outside any scope.
        guard let text = rows.first?[0] ?? nil else { return 0 }
        if let saved = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
           let outline = saved["outline"] as? [String: Any], let scopes = outline["scopes"] as? [Any], !scopes.isEmpty {
            return scopes.count - 1
        }
        return try? readState().scopeLevel
    }

    public func everyonesSteps() throws(TodoError) -> [AuthoredStep]? {
        try transaction(readOnly: true) { connection -> [AuthoredStep] in
            var steps: [AuthoredStep] = []
            var versions: ListVersions?
            for row in try connection.query("SELECT author, state, seen_version FROM histories ORDER BY author") {
                guard let name = row[0], let text = row[1] else { continue }
                // Whole, in one query per person: the listing shows every step.
                let state = try self.decodeState(text, of: name, seenVersion: row[2].flatMap { Int64($0) }, whole: true, connection) { () throws -> ListVersions in
                    if let versions { return versions }
                    let loaded = try ListVersions(connection)
                    versions = loaded
                    return loaded
                }.state
                let (undo, redo) = state.steps()
                steps += undo.map { AuthoredStep(author: name, step: $0, undone: false) }
                steps += redo.map { AuthoredStep(author: name, step: $0, undone: true) }
            }
            return steps.sorted { ($0.step.time, $0.author) < ($1.step.time, $1.author) }
        }
    }

    public func noteListed(_ list: TodoList) throws(TodoError) {
        let ids = list.items.map(\.id)
        let readVersion = lastReadVersion
        // Not queued behind other writers: it writes the caller's own row only, and `list`
        // must not wait for someone's long import (or a lock held in psql) to show the list.
        try transaction(readOnly: false, queued: false) { connection in
            // Reading needs no right to write: a read-only session (a role granted SELECT
            // only, `default_transaction_read_only`) lists without keeping the
            // listing, which only matters to commands it could not run anyway.
            let writable = try connection.query(
                "SELECT current_setting('transaction_read_only') = 'off' AND has_table_privilege('histories', 'INSERT') AND has_table_privilege('histories', 'UPDATE')"
            )
            guard writable.first?[0] == "t" else { return }
            // The list unchanged since it was read: the listing is that version of the list,
            // kept as its number rather than as every id.
            let version = try Self.listVersion(connection)
            let unchanged = readVersion == version
            let listing = unchanged ? nil : try Self.encodeListing(ids)
            let listingVersion = unchanged ? String(version) : nil
            // A listing kept as rows is replaced, whatever it was.
            try connection.query("DELETE FROM listings WHERE author = $1", [self.person])
            let updated = try connection.query(
                "UPDATE histories SET listing = $2, listing_version = $3, listing_count = NULL WHERE author = $1 RETURNING 1",
                [self.person, listing, listingVersion]
            )
            guard updated.isEmpty else { return }
            // Someone new: their history starts at the list they see, empty. Rows of steps
            // left by a row of `histories` deleted by hand would be read as theirs.
            try connection.query("DELETE FROM steps WHERE author = $1", [self.person])
            let outline = UndoableState(list).unsavedHistoryChanges.outline
            try connection.query(
                "INSERT INTO histories (author, state, listing, listing_version, seen_version) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (author) DO UPDATE SET listing = EXCLUDED.listing, listing_version = EXCLUDED.listing_version, listing_count = NULL",
                [self.person, try SavedHistory(outline: outline, present: unchanged ? nil : list).text(), listing, listingVersion, listingVersion]
            )
        }
    }

    // MARK: Writing

    public func modify<Result>(
        nearTheEnds: Bool,
        appliesSavedSteps: Bool,
        onConflict: ConflictPolicy,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws(TodoError) -> Result {
        let (result, skipped, state, known, kept) = try transaction(readOnly: false) {
            connection -> (Result, [SkippedPart], UndoableState<TodoList>, KnownList?, KeptHistory?) in
            // Once per attempt: a transaction the server refuses as conflicting runs again
            // from here (see `transaction`), on the list as it is then, with a fresh store;
            // what the command says is only returned, and shown after the commit.
            // Taken, so that an attempt that fails leaves none behind.
            let previous = self.keptHistory
            self.keptHistory = nil
            if nearTheEnds, let done = try self.modifyNearTheEnds(connection, appliesSavedSteps: appliesSavedSteps, kept: previous, change) {
                return (done.result, [], done.state, done.known, done.kept)
            }
            let versions = try ListVersions(connection, known: self.knownList) { self.itemRowsRead += $0 }
            let (current, keys) = (versions.current, versions.keys)
            let own = try self.loadOwn(connection, versions, whole: false, kept: previous)
            self.lastListing = own.listing
            let store = TodoStore(
                initialState: own.history?.state ?? UndoableState(current),
                reducer: appliesSavedSteps ? self.movingReducer : self.reducer
            )
            // Others' changes since, without a step: undo and redo then take back the
            // caller's own steps around them, and skip what others wrote since a step.
            OtherWriters.absorb(current, into: store)
            let result: Result
            do {
                result = try self.typed { () throws(TodoError) in try change(store) }
            } catch {
                try self.checkReads(of: store.state, own.history?.rows)
                throw error
            }
            try self.checkReads(of: store.state, own.history?.rows)
            let after = store.state.present
            var skipped: [SkippedPart] = []
            if appliesSavedSteps {
                // Named as the list was before the move; an item someone else removed, as the
                // caller last saw it.
                let known = [own.history?.state.present, after].compactMap { $0 }
                skipped = try SkippedPart.parts(of: store.state.lastConflicts, current: current, known: known)
                    .map { try self.withAuthor($0, current: current, connection) }
                if !skipped.isEmpty, onConflict == .refuse {
                    throw TodoError.badInput(Self.describe(skipped, refused: true))
                }
            }
            let (written, writtenKeys) = try self.writeItems(before: current, keys: keys, after: after, version: versions.version, recordingAuthors: !appliesSavedSteps, connection)
            // The caller's own change moves the positions they know of as it moves the list;
            // what others changed since their last `list` stays unknown to them. A listing
            // that is the list now is kept as the list's version (the common case: nobody
            // else wrote since the caller's last `list`), not as every id.
            // A listing that is no version of the list is kept as rows, changed by what moved
            // (see `ListingRows`); one that is, as that version.
            var listingVersion: String? = String(written)
            var listingCount: String?
            if let listing = own.listing, !own.listingIsCurrent, !listing.elementsEqual(current.items.lazy.map(\.id)) {
                let moved = Self.listing(listing, after: current, became: after)
                if !moved.elementsEqual(after.items.lazy.map(\.id)) {
                    if let rows = own.listingRows {
                        self.listingRowsWritten += try ListingRows.write(moved, replacing: rows, author: self.person, connection)
                    } else {
                        try ListingRows.writeWhole(moved, author: self.person, connection)
                        self.listingRowsWritten += moved.count
                    }
                    listingCount = String(moved.count)
                    listingVersion = nil
                }
            }
            if listingCount == nil, own.listingRows != nil {
                try connection.query("DELETE FROM listings WHERE author = $1", [self.person])
            }
            // Someone new, or a history saved before its steps had columns: every step.
            let rows = own.history?.rows ?? self.historyRows(connection, outline: nil)
            var state = store.state
            let history = try rows.encode(state.unsavedHistoryChanges, replacingAll: own.history?.readWhole ?? true)
            try connection.query(
                """
                INSERT INTO histories (author, state, listing, seen_version, listing_version, listing_count, horizon_version) VALUES ($1, $2, NULL, $3, $4, $5, $6)
                ON CONFLICT (author) DO UPDATE SET state = EXCLUDED.state, listing = NULL, seen_version = EXCLUDED.seen_version,
                    listing_version = EXCLUDED.listing_version, listing_count = EXCLUDED.listing_count, horizon_version = EXCLUDED.horizon_version
                """,
                [self.person, try rows.write(history), String(written), listingVersion, listingCount, self.horizonVersion.map { String($0) }]
            )
            state.historyWasSaved(to: rows)
            if written != versions.version { try self.trimLog(connection, version: written) }
            let kept = KeptHistory(text: history.state, seenVersion: written, opened: OpenedHistory(state: state, rows: rows, readWhole: false))
            return (result, skipped, state, KnownList(version: written, list: after, keys: writtenKeys), kept)
        }
        // Kept only once committed: an attempt the server refused wrote nothing.
        cachedState = state
        knownList = known
        keptHistory = kept
        lastSkipped = skipped
        if !skipped.isEmpty { notice(Self.describe(skipped, refused: false)) }
        return result
    }

    /// How many items at each end of the list ``modifyNearTheEnds(_:appliesSavedSteps:_:)``
    /// reads, as the file store does.
    static let endRows = TodoDataFile.endRows

    /// A command near the ends of a long list, on the list read at its ends only (stand-ins
    /// between, see ``Placeholders``), when nobody else changed the list since the caller's
    /// last command and their listing, if any, is the list now: so nothing is absorbed and
    /// no position is checked against items not read. `nil`, having written nothing, when
    /// that does not hold, or when the command failed, met a conflict, or touched, wrote or
    /// saved in a step an item not read: the caller then runs it on the whole list, which
    /// also says what went wrong.
    private func modifyNearTheEnds<Result>(
        _ connection: PostgresConnection,
        appliesSavedSteps: Bool,
        kept: KeptHistory?,
        _ change: (TodoStore) throws(TodoError) -> Result
    ) throws -> (result: Result, state: UndoableState<TodoList>, known: KnownList?, kept: KeptHistory?)? {
        let (version, floor) = try Self.listVersionAndFloor(connection)
        // The list this process knows, when it is the list now: whole, so nothing is read.
        let known = knownList.flatMap { $0.version == version ? PartialList(list: $0.list, keys: $0.keys, placeholders: Placeholders()) : nil }
        // A listing kept as rows (`listing_count`) is read at its ends too: nobody wrote since
        // the caller's last command, so what their change does to it is found near the ends.
        guard let own = try connection.query(
            "SELECT state, seen_version, listing IS NULL, listing_version, listing_count, horizon_version FROM histories WHERE author = $1", [person]
        ).first, let text = own[0], own[1] == String(version), own[2] == "t",
        own[4] != nil || own[3] == nil || own[3] == String(version),
        let ends = try known ?? Self.loadEnds(connection, rows: Self.endRows) else { return nil }
        let listingCount = try Self.number(own[4], "listing_count")
        horizonVersion = try Self.number(own[5], "horizon_version")
        let versions = ListVersions(current: ends.list, keys: ends.keys, version: version, floor: floor, connection: connection)
        // A step next to the present that touches items not read (an import's) does not load
        // on the ends: the whole list then. A failure of the server is not retried there, on
        // a transaction it has aborted.
        let opened: OpenedHistory
        do {
            if known != nil, let kept, kept.text == text, kept.seenVersion == version, kept.opened.rows.reads(through: connection) {
                opened = kept.opened
            } else {
                opened = try decodeState(text, of: person, seenVersion: version, whole: false, connection) { versions }
            }
        } catch let error as PostgresError {
            throw error
        } catch {
            return nil
        }
        let before = opened.state
        let store = TodoStore(initialState: before, reducer: appliesSavedSteps ? movingReducer : reducer)
        if let listingCount {
            lastListing = try ListingRows.readEnds(connection, author: person, count: listingCount, rows: Self.endRows, filler: UUID())
            listingRowsRead += Int(min(listingCount, Int64(2 * Self.endRows)))
        } else {
            lastListing = own[3] == nil ? nil : ends.list.items.map(\.id)
        }
        let result = try? change(store)
        if let failure = opened.rows.serverFailure { throw failure }
        guard let result, store.state.error == nil, store.state.historyReadFailure == nil,
              !appliesSavedSteps || store.state.lastConflicts.isEmpty else { return nil }
        var after = store.state
        let items = ItemChanges(before: before.present.items, beforeKeys: ends.keys, after: after.present.items)
        guard ends.placeholders.allowWriting(items, in: after.present.items) else { return nil }
        let history = try opened.rows.encode(after.unsavedHistoryChanges, replacingAll: opened.readWhole)
        guard !history.documents.contains(where: { ends.placeholders.appears(in: Data($0.utf8)) }) else { return nil }
        // Planned before anything is written: a plan that needs the whole list returns nil.
        var listingPlan: ListingRows.Plan?
        if listingCount != nil {
            guard let plan = try ListingRows.planOnEnds(after: after.present, changes: items, placeholders: ends.placeholders, author: person, connection) else { return nil }
            listingPlan = plan
        }
        let (written, writtenKeys) = try writeItems(before: before.present, keys: ends.keys, after: after.present, version: version, recordingAuthors: !appliesSavedSteps, connection)
        let outline = try opened.rows.write(history)
        after.historyWasSaved(to: opened.rows)
        // As on the whole list: one's own change moves one's listing with it, and someone
        // without one gets the list as it is after their change.
        if let listingCount, let listingPlan {
            let count = listingCount + (try ListingRows.apply(listingPlan, author: person, connection))
            listingRowsWritten += listingPlan.deleted.count + listingPlan.inserted.count
            try connection.query(
                "UPDATE histories SET state = $2, seen_version = $3, listing_count = $4 WHERE author = $1",
                [person, outline, String(written), String(count)]
            )
        } else {
            try connection.query(
                "UPDATE histories SET state = $2, seen_version = $3, listing_version = $3 WHERE author = $1",
                [person, outline, String(written)]
            )
        }
        if written != version { try trimLog(connection, version: written) }
        // Read whole, the list and the history are known as they are now.
        guard known != nil else { return (result, after, nil, nil) }
        let keptNow = KeptHistory(text: outline, seenVersion: written, opened: OpenedHistory(state: after, rows: opened.rows, readWhole: false))
        return (result, after, KnownList(version: written, list: after.present, keys: writtenKeys), keptNow)
    }

    /// The list read at its ends only, `nil` when it is short enough to read whole.
    static func loadEnds(_ connection: PostgresConnection, rows: Int) throws -> PartialList? {
        guard let count = try connection.query("SELECT count(*) FROM items").first?[0].flatMap({ Int($0) }), count > 2 * rows else { return nil }
        func read(_ sql: String) throws -> (items: [TodoItem], keys: [Int64]) {
            var items: [TodoItem] = []
            var keys: [Int64] = []
            for row in try connection.query(sql, [String(rows)]) {
                guard let key = row[0].flatMap({ Int64($0) }), let id = row[1].flatMap({ UUID(parsing: $0) }), let title = row[2], let done = row[3] else {
                    throw PostgresError(kind: .damaged, message: "a row of the items table is damaged")
                }
                items.append(TodoItem(id: id, title: title, isDone: done == "t"))
                keys.append(key)
            }
            return (items, keys)
        }
        let head = try read("SELECT position, id, title, done FROM items ORDER BY position LIMIT $1::bigint")
        let tail = try read("SELECT position, id, title, done FROM items ORDER BY position DESC LIMIT $1::bigint")
        guard head.items.count == rows, tail.items.count == rows else {
            throw PostgresError(kind: .query, message: "the items table changed while it was read")
        }
        let placeholders = Placeholders()
        let middle = count - 2 * rows
        var items = head.items
        items.reserveCapacity(count)
        items += (0..<middle).lazy.map { placeholders.item(at: $0) }
        items += tail.items.reversed()
        // The stand-ins' keys are never written (see `Placeholders.allowWriting`); any value
        // between their neighbours' keys keeps the array the right length.
        var keys = head.keys
        keys.reserveCapacity(count)
        keys += repeatElement(head.keys[rows - 1], count: middle)
        keys += tail.keys.reversed()
        return PartialList(list: TodoList(items: TreeArray(items)), keys: keys, placeholders: placeholders)
    }

    /// The one line that says what a move skipped (or why it was refused).
    static func describe(_ skipped: [SkippedPart], refused: Bool) -> String {
        let parts = skipped.map { part -> String in
            let who = part.changedBy.map { PlainText.escaping($0) } ?? "someone else"
            guard part.item != nil else { return "the order and contents of the list (\(who) changed them since)" }
            let what = part.field == "item" ? "the item \(quoted(part.title))" : "the \(part.field == "done" ? "done mark" : "title") of \(quoted(part.title))"
            return part.removed ? "\(what) (\(who) removed it)" : "\(what) (\(who) changed it since)"
        }
        return refused
            ? "refused: someone else changed what this would revert: \(parts.joined(separator: "; ")); nothing was changed (without --strict, the rest is applied and these are skipped)"
            : "skipped what someone else changed since: \(parts.joined(separator: "; "))"
    }

    /// `listing` with the caller's own change from `before` to `after` applied: the items it
    /// removed dropped, the items it added or moved placed after the item before them in
    /// `after`, as far as the listing holds that one.
    static func listing(_ listing: [UUID], after before: TodoList, became after: TodoList) -> [UUID] {
        guard !OtherWriters.sameItems(before, after) else { return listing }
        let kept = Set(after.items.map(\.id))
        var result = listing.filter { kept.contains($0) }
        let old = Set(before.items.map(\.id))
        // Moved: the items whose neighbour before them changed, among the items of both.
        let common = after.items.map(\.id).filter { old.contains($0) }
        let commonBefore = before.items.map(\.id).filter { kept.contains($0) }
        var predecessorBefore: [UUID: UUID?] = [:]
        for (index, id) in commonBefore.enumerated() { predecessorBefore[id] = index > 0 ? commonBefore[index - 1] : nil }
        // Looked up once per item: a search of `common` for each would be quadratic.
        let commonIndex = Dictionary(common.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (offset, item) in after.items.enumerated() {
            let index = commonIndex[item.id]
            let isNew = !old.contains(item.id)
            let moved = index.map { predecessorBefore[item.id] != ($0 > 0 ? common[$0 - 1] : nil) } ?? false
            guard isNew || moved else { continue }
            result.removeAll { $0 == item.id }
            var slot = 0
            var back = offset - 1
            while back >= 0 {
                if let at = result.firstIndex(of: after.items[back].id) { slot = at + 1; break }
                back -= 1
            }
            if back < 0, offset > 0, isNew { slot = result.count }
            result.insert(item.id, at: slot)
        }
        return result
    }

    // MARK: Rows

    /// The list, and each item's order key.
    static func loadItems(_ connection: PostgresConnection) throws -> (list: TodoList, keys: [Int64]) {
        let rows = try connection.query("SELECT position, id, title, done FROM items ORDER BY position")
        var items: [TodoItem] = []
        var keys: [Int64] = []
        items.reserveCapacity(rows.count)
        keys.reserveCapacity(rows.count)
        for row in rows {
            guard let key = row[0].flatMap({ Int64($0) }), let id = row[1].flatMap({ UUID(parsing: $0) }), let title = row[2], let done = row[3] else {
                throw PostgresError(kind: .damaged, message: "a row of the items table is damaged")
            }
            items.append(TodoItem(id: id, title: title, isDone: done == "t"))
            keys.append(key)
        }
        return (TodoList(items: items), keys)
    }

    /// The list's version: one more for every command that wrote items.
    static func listVersion(_ connection: PostgresConnection) throws -> Int64 {
        try listVersionAndFloor(connection).version
    }

    /// The list's version, and the oldest version the log still rebuilds (`log_floor`).
    static func listVersionAndFloor(_ connection: PostgresConnection) throws -> (version: Int64, floor: Int64) {
        // Exactly one row: a second one (a hand edit) would make the version depend on which
        // row the server returns first, so it is reported as damage rather than read.
        let rows = try connection.query("SELECT version, log_floor FROM list_version")
        guard rows.count == 1, let text = rows[0][0], let version = Int64(text), let floor = rows[0][1].flatMap({ Int64($0) }), floor <= version else {
            throw PostgresError(kind: .damaged, message: rows.count == 1 ? "the list_version table's row does not hold a version number and the log's floor below it" : "the list_version table holds \(rows.count) rows, not one")
        }
        return (version, floor)
    }

    /// The list now, with its version, and the list at any earlier version a person's history
    /// or listing still stands at: rebuilt from the rows now and the log of what each write
    /// replaced, newest first.
    struct ListVersions {
        let current: TodoList
        let keys: [Int64]
        let version: Int64
        /// The oldest version the log still rebuilds: the horizon, or older.
        let floor: Int64
        private let connection: PostgresConnection

        /// The list as it is in `connection`'s transaction: `known` when it is of the
        /// version the server holds, else read row by row.
        init(_ connection: PostgresConnection, known: KnownList? = nil, counted: ((Int) -> Void)? = nil) throws {
            (version, floor) = try TodoServerStore.listVersionAndFloor(connection)
            if let known, known.version == version {
                (current, keys) = (known.list, known.keys)
            } else {
                (current, keys) = try TodoServerStore.loadItems(connection)
                counted?(current.items.count)
            }
            self.connection = connection
        }

        /// The list as this process now knows it.
        var known: KnownList { KnownList(version: version, list: current, keys: keys) }

        init(current: TodoList, keys: [Int64], version: Int64, floor: Int64, connection: PostgresConnection) {
            self.current = current
            self.keys = keys
            self.version = version
            self.floor = floor
            self.connection = connection
        }

        func list(at earlier: Int64) throws -> TodoList {
            guard earlier != version else { return current }
            guard earlier < version else {
                throw PostgresError(kind: .query, message: "a history stands at list version \(earlier), after the list's \(version)")
            }
            // Callers ask ``floor`` first; a version the log no longer rebuilds would come out
            // as a list that never was.
            guard earlier >= floor else {
                throw PostgresError(kind: .query, message: "list version \(earlier) lies beyond the log's horizon (\(floor))")
            }
            // Each logged item as it was at `earlier`: its oldest before-image after it.
            var logged: [UUID: (key: Int64, item: TodoItem)?] = [:]
            let log = try connection.query("SELECT id, position, title, done FROM item_log WHERE version > $1 ORDER BY version DESC", [String(earlier)])
            for entry in log {
                guard let id = entry[0].flatMap({ UUID(parsing: $0) }) else {
                    throw PostgresError(kind: .damaged, message: "a row of the item_log table is damaged")
                }
                if let key = entry[1].flatMap({ Int64($0) }), let title = entry[2], let done = entry[3] {
                    logged[id] = .some((key, TodoItem(id: id, title: title, isDone: done == "t")))
                } else {
                    logged[id] = .some(nil)
                }
            }
            // The items no write since touched, in order, merged with the logged ones by key:
            // one pass over the list, whatever its length.
            let restored = logged.values.compactMap { $0 }.sorted { $0.key < $1.key }
            var items: [TodoItem] = []
            items.reserveCapacity(current.items.count + restored.count)
            var next = restored.startIndex
            for (item, key) in zip(current.items, keys) where logged[item.id] == nil {
                while next < restored.endIndex, restored[next].key < key {
                    items.append(restored[next].item)
                    next += 1
                }
                items.append(item)
            }
            items += restored[next...].map(\.item)
            return TodoList(items: items)
        }
    }

    /// The caller's history as a command committed it, with the `state` text and
    /// `seen_version` it wrote in their row.
    struct KeptHistory {
        let text: String
        let seenVersion: Int64
        let opened: OpenedHistory
    }

    /// A version of the list, with each item's order key.
    struct KnownList {
        let version: Int64
        let list: TodoList
        let keys: [Int64]
    }

    /// The caller's saved history and last listing, if they have used this list before; the
    /// history read `whole` or one step at a time (see ``decodeState(_:of:seenVersion:whole:_:_:)``),
    /// or `kept` when their row still holds what that history's command wrote.
    private func loadOwn(_ connection: PostgresConnection, _ versions: ListVersions, whole: Bool, kept: KeptHistory? = nil) throws -> OwnHistory {
        guard let row = try connection.query(
            "SELECT state, listing, seen_version, listing_version, listing_count, horizon_version FROM histories WHERE author = $1", [person]
        ).first else {
            horizonVersion = nil
            return OwnHistory()
        }
        var own = OwnHistory()
        horizonVersion = try Self.number(row[5], "horizon_version")
        let seenVersion = row[2].flatMap { Int64($0) }
        if let kept, !whole, let text = row[0], text == kept.text, seenVersion == kept.seenVersion, kept.seenVersion >= versions.floor,
           kept.opened.rows.reads(through: connection) {
            own.history = kept.opened
        } else if let text = row[0] {
            let opened = try decodeState(text, of: person, seenVersion: seenVersion, whole: whole, connection) { versions }
            if opened.beyondHorizon {
                // Rebased: a fresh history on the list as it is, which replaces every row of
                // the old one when the command writes.
                horizonVersion = versions.version
                own.history = OpenedHistory(state: UndoableState(versions.current), rows: opened.rows, readWhole: true)
            } else {
                own.history = opened
            }
        }
        if let text = row[1] {
            own.listing = try JSONDecoder().decode([UUID].self, from: Data(text.utf8))
        } else if let count = try Self.number(row[4], "listing_count") {
            let rows = try ListingRows.read(connection, author: person, count: count)
            listingRowsRead += rows.count
            own.listingRows = rows
            own.listing = rows.map(\.id)
        } else if let listed = row[3].flatMap({ Int64($0) }) {
            if listed < versions.floor {
                // That version is no longer rebuilt: no item number is taken as listed
                // until the next `list` (the session refuses each, saying so).
                own.listing = []
            } else {
                own.listing = try versions.list(at: listed).items.map(\.id)
                own.listingIsCurrent = listed == versions.version
            }
        }
        return own
    }

    /// A nullable number column of `histories`: `nil` for NULL, damage for anything else
    /// that is not a number.
    static func number(_ text: String?, _ column: String) throws -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text) else {
            throw PostgresError(kind: .damaged, message: "a row of the histories table has a \(column) that is not a number")
        }
        return value
    }

    /// The caller's saved history and last listing, if they have used this list before.
    struct OwnHistory {
        var history: OpenedHistory?
        var listing: [UUID]?
        /// The listing's rows with their keys, when it is kept as rows (``ListingRows``).
        var listingRows: [(id: UUID, key: Int64)]?
        /// Whether `listing` is the list now.
        var listingIsCurrent = false
    }

    /// Forgets the log no history or listing stands before any more, and all of it beyond the
    /// horizon (``logHorizon`` versions before `version`) whoever stands there: one person
    /// away for months would otherwise keep every write of everyone since. Then records how
    /// far back the log still rebuilds the list (`log_floor`).
    func trimLog(_ connection: PostgresConnection, version: Int64) throws {
        let horizon = version > Int64.min + logHorizon ? version - logHorizon : Int64.min
        // One statement, as the trim was before the horizon: it runs in every writing
        // command, under the writers' lock.
        try connection.query(
            """
            WITH bound AS (
                SELECT greatest($2::bigint, (
                    SELECT min(least(coalesce(seen_version, $1::bigint),
                        CASE WHEN listing IS NULL AND listing_count IS NULL THEN coalesce(listing_version, $1::bigint) ELSE $1::bigint END))
                    FROM histories)) AS version
            ), trimmed AS (
                DELETE FROM item_log WHERE version <= (SELECT version FROM bound)
            )
            UPDATE list_version SET log_floor = (SELECT version FROM bound) WHERE log_floor < (SELECT version FROM bound)
            """,
            [String(version), String(horizon)]
        )
    }

    /// Writes the rows that differ between `before` and `after`, what they were before, and
    /// (when `recordingAuthors`) who changed them to what; returns the list's version after
    /// (`version` if nothing changed).
    ///
    /// A move through the history (undo, redo, goto, rollback) records no author: it writes
    /// back values someone wrote before, whose author is the one who wrote them, and a row
    /// naming the mover would hide that person from a later skip note.
    private func writeItems(
        before: TodoList, keys: [Int64], after: TodoList, version: Int64, recordingAuthors: Bool, _ connection: PostgresConnection
    ) throws -> (version: Int64, keys: [Int64]) {
        let changes = ItemChanges(before: before.items, beforeKeys: keys, after: after.items)
        guard !changes.isEmpty else { return (version, keys) }
        let next = version + 1
        // The notice is delivered at commit only, and not at all if the transaction is rolled
        // back or run again: `todo watch` and the shell hear of committed changes only
        // (ChangeFeed). One statement with the new version, one round trip.
        try connection.query(
            "WITH bumped AS (UPDATE list_version SET version = $1::bigint RETURNING version) SELECT pg_notify($2, version::text) FROM bumped",
            [String(next), ChangeFeed.channel]
        )
        // The items written, as they were and as they are: only these, never the whole list.
        var afterIndex: [UUID: Int] = [:]
        for position in changes.inserted + changes.updated { afterIndex[after.items[position].id] = position }
        var touched = changes.deleted
        for id in afterIndex.keys where !changes.deleted.contains(id) { touched.append(id) }
        var beforeIndex: [UUID: Int] = [:]
        let wanted = Set(touched)
        for (index, item) in before.items.enumerated() where wanted.contains(item.id) { beforeIndex[item.id] = index }
        // The steps of the writes below, for the progress line: each item is logged, written
        // and recorded as changed, so it counts three times.
        let steps = 3 * wanted.count
        var stepsDone = 0
        func step() {
            stepsDone += 1
            if stepsDone % 256 == 0 { progress?(min(wanted.count, wanted.count * stepsDone / steps), wanted.count) }
        }
        defer { progress?(wanted.count, wanted.count) }
        for id in wanted {
            step()
            let old = beforeIndex[id]
            try connection.query(
                "INSERT INTO item_log (version, id, position, title, done) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                [String(next), id.uuidString, old.map { String(keys[$0]) }, old.map { before.items[$0].title }, old.map { before.items[$0].isDone ? "t" : "f" }]
            )
        }
        for id in changes.deleted {
            step()
            try connection.query("DELETE FROM items WHERE id = $1", [id.uuidString])
        }
        for position in changes.inserted {
            step()
            let item = after.items[position]
            try connection.query(
                "INSERT INTO items (position, id, title, done) VALUES ($1, $2, $3, $4)",
                [String(changes.keys[position]), item.id.uuidString, item.title, item.isDone ? "t" : "f"]
            )
        }
        for position in changes.updated {
            step()
            let item = after.items[position]
            try connection.query("UPDATE items SET title = $2, done = $3 WHERE id = $1", [item.id.uuidString, item.title, item.isDone ? "t" : "f"])
        }
        // Who changed what to what, for the messages of someone else's later undo: each
        // person's latest change of each field, so that another person's later change does
        // not hide whose value is in the way. An item not written kept its title and done
        // mark. Rows deleted and inserted again were given a new key: moved, for `todo watch`
        // to say who moved them (the `position` field, which no skip note asks about).
        guard recordingAuthors else { return (next, changes.keys) }
        var fields: [(UUID, String, String?)] = []
        let rekeyed = Set(changes.deleted)
        for id in wanted {
            step()
            let previous = beforeIndex[id].map { before.items[$0] }
            let item = afterIndex[id].map { after.items[$0] }
            guard let previous, let item else { fields.append((id, "item", nil)); continue }
            if previous.title != item.title { fields.append((id, "title", item.title)) }
            if previous.isDone != item.isDone { fields.append((id, "done", item.isDone ? "t" : "f")) }
            if rekeyed.contains(id) { fields.append((id, "position", nil)) }
        }
        for (id, field, value) in fields {
            try connection.query(
                "INSERT INTO item_changes (id, field, author, at, value) VALUES ($1, $2, $3, clock_timestamp(), $4) ON CONFLICT (id, field, author) DO UPDATE SET at = EXCLUDED.at, value = EXCLUDED.value",
                [id.uuidString, field, person, value]
            )
        }
        return (next, changes.keys)
    }

    /// `part` with who changed it: the person whose value the item holds in `current`, else
    /// whoever changed that field last; the list as a whole has no one author.
    private func withAuthor(_ part: SkippedPart, current: TodoList, _ connection: PostgresConnection) throws -> SkippedPart {
        guard let item = part.item else { return part }
        var part = part
        // An item the move would remove or restore conflicts through a change of its title or
        // done mark (or its removal): the latest of those says who. A part is skipped for
        // what someone else wrote (the caller's own changes are steps of their history), so
        // another person's change comes first: the caller may have changed the other field
        // later (alice marks done the item bob renamed, then undoes that and her add).
        let fields = part.removed ? ["item"] : part.field == "item" ? ["title", "done"] : [part.field]
        // Of those, the one who wrote the value the item holds now: someone else's undo may
        // have written back an older value since (a move records no author).
        let now = current.index(of: item).map { current.items[$0] }
        let author = try connection.query(
            """
            SELECT author FROM item_changes WHERE id = $1 AND field = ANY($2::text[])
            ORDER BY author = $3, coalesce(CASE field WHEN 'title' THEN value = $4 WHEN 'done' THEN value = $5 END, false) DESC, at DESC LIMIT 1
            """,
            [item.uuidString, "{" + fields.joined(separator: ",") + "}", person, now?.title, now.map { $0.isDone ? "t" : "f" }]
        ).first?[0] ?? nil
        // '' is a change made outside the todo (psql), logged by the schema's trigger: it has
        // no name to show, so the note says "someone else".
        part.changedBy = author == "" ? nil : author
        return part
    }

    /// A person's saved history, opened at their present, and the rows it reads from.
    struct OpenedHistory {
        var state: UndoableState<TodoList>
        var rows: PersonHistoryRows
        /// Whether it was read whole, not one step at a time: saved before its steps could
        /// be (then its next write rewrites every row), or read for a listing.
        var readWhole: Bool
        /// Whether the history stands at a list version beyond the log's horizon: `state` is
        /// then an empty history on the list as it is now, its steps can no longer be
        /// applied, and the person's next write replaces them (see ``TodoServerStore/logHorizon``).
        var beyondHorizon = false
    }

    /// Rows of the caller's history, counted in ``stepRowsRead``.
    private func historyRows(_ connection: PostgresConnection, outline: HistoryArchive<TodoList>.Outline?, of name: String? = nil) -> PersonHistoryRows {
        PersonHistoryRows(connection, author: name ?? person, outline: outline) { [weak self] rows in self?.stepRowsRead += rows }
    }

    /// A person's saved history, checked only next to its present: older steps were made
    /// before other people's changes were absorbed, and apply only where the list still
    /// agrees with them, which is what a move finds out (the engine's `lastConflicts`).
    ///
    /// Each step is read when a command first crosses it, unless `whole` or the history was
    /// saved before its steps could be read one at a time (see ``SavedHistory/format``).
    private func decodeState(
        _ text: String, of name: String, seenVersion: Int64?, whole: Bool, _ connection: PostgresConnection, _ versions: () throws -> ListVersions
    ) throws -> OpenedHistory {
        var rows: PersonHistoryRows?
        do {
            let saved = try JSONDecoder().decode(SavedHistory.self, from: Data(text.utf8))
            if saved.present == nil, let seenVersion, try seenVersion < versions().floor {
                let opened = historyRows(connection, outline: saved.outline, of: name)
                return OpenedHistory(state: UndoableState(try versions().current), rows: opened, readWhole: true, beyondHorizon: true)
            }
            guard let present = try saved.present ?? seenVersion.map({ try versions().list(at: $0) }) else {
                throw HistoryRowDamage("the history has neither a present nor a list version")
            }
            let opened = historyRows(connection, outline: saved.outline, of: name)
            rows = opened
            if saved.readsLazily, !whole {
                return OpenedHistory(state: try UndoableState(present: present, store: opened), rows: opened, readWhole: false)
            }
            let archive = try saved.history ?? opened.wholeArchive()
            return OpenedHistory(
                state: try UndoableState(present: present, archive: archive, checkingEveryStep: false), rows: opened, readWhole: true
            )
        } catch let error as PostgresError where error.sqlState != nil || error.kind == .connectionLost {
            // The server's failure, not the history's: the transaction is run again or
            // reported as such.
            throw error
        } catch {
            if let failure = rows?.serverFailure { throw failure }
            throw historyDamage(of: name, error)
        }
    }

    /// Throws if the command could not read a step of `rows` that it crossed: the server's
    /// failure as such (the transaction is run again, or reported), a damaged step as the
    /// history's damage. Nothing is written then: not even after a move that itself read
    /// well, when what it then read (the step it reached, for the count of steps left to
    /// undo) failed.
    private func checkReads(of state: UndoableState<TodoList>, _ rows: PersonHistoryRows?) throws {
        if let failure = rows?.serverFailure { throw failure }
        if case let .unreadableStep(_, damage)? = state.historyReadFailure { throw historyDamage(of: person, damage) }
    }

    /// The error for `name`'s history that cannot be read because of `error`.
    private func historyDamage(of name: String, _ error: any Error) -> TodoError {
        TodoError(.dataFile, "\(displayName): the history of \(PlainText.escaping(name)) cannot be read (\(reason(error))); nothing was changed")
    }

    private static func encodeListing(_ ids: [UUID]) throws -> String {
        String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
    }

    /// Runs a typed-throwing body inside an untyped one.
    private func typed<T>(_ body: () throws(TodoError) -> T) throws -> T {
        try body()
    }

    // MARK: Transactions

    /// The open connection, connecting (and preparing the schema) first if needed.
    private func connected() throws(TodoError) -> PostgresConnection {
        if let connection, connection.isConnected { return connection }
        connection = nil
        if case .failure(let problem) = parsedConninfo { throw Self.unreadable(problem, source: source) }
        do {
            let fresh = try PostgresConnection(conninfo)
            if !prepared {
                try ServerSchema.prepare(fresh, name: displayName)
                prepared = true
            }
            // The todo logs its own writes of items; the schema's trigger logs anyone else's
            // (see `ServerSchema`), and stays out of the way of this connection, which only
            // the todo's commands use: set once for the session, not in every transaction.
            try fresh.query("SELECT set_config('todo.writer', 'todo', false)")
            connection = fresh
            sessionLockTimeout = nil
            return fresh
        } catch let error as TodoError {
            throw error
        } catch let error as PostgresError {
            throw serverError(error)
        } catch {
            throw TodoError(.dataFile, "\(displayName): \(reason(error))")
        }
    }

    /// Runs `body` in one transaction, again from the start while the server refuses it as
    /// conflicting with another (up to ``maximumAttempts`` times); rolls back on any error.
    ///
    /// A lock another connection holds is waited for a second (the server's `lock_timeout`),
    /// then the wait is said and the transaction run again with the rest of ``lockTimeout``,
    /// after which the command gives up: without a limit the server waits for ever, and the
    /// command with it, without a word.
    ///
    /// A writer (`readOnly` false) takes the writers' advisory lock first unless `queued` is
    /// false.
    private func transaction<T>(readOnly: Bool, queued: Bool = true, _ body: (PostgresConnection) throws -> T) throws(TodoError) -> T {
        var attempt = 0
        let waitStart = ContinuousClock.now
        var announced = false
        var reconnected = false
        while true {
            attempt += 1
            // A connection kept from an earlier command (a script's, the shell's) may have
            // been closed since: a server restart, `idle_session_timeout`.
            let reused = connection != nil
            let connection = try connected()
            var committing = false
            var locked = false
            var began = false
            defer {
                if locked { _ = try? connection.query("SELECT pg_advisory_unlock($1::bigint)", [Self.writersLock]) }
            }
            do {
                // Before the lock and the transaction, which may wait: a session setting, set
                // only when it changes.
                let limit = announced ? lockTimeout - (ContinuousClock.now - waitStart) : min(Self.lockAnnounceAfter, lockTimeout)
                try limitLockWaits(connection, to: limit)
                if !readOnly, queued {
                    // Writers queue up, as on a file: taken before the transaction, whose
                    // snapshot is then made after the previous writer committed. Without it,
                    // concurrent commands all read the same list and all but one are refused
                    // as conflicting, again and again under load.
                    try connection.query("SELECT pg_advisory_lock($1::bigint)", [Self.writersLock])
                    locked = true
                }
                try connection.query(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL SERIALIZABLE")
                began = true
                let result = try body(connection)
                committing = true
                try connection.query("COMMIT")
                return result
            } catch let error as PostgresError {
                _ = try? connection.query("ROLLBACK")
                // The server may say why it closed the connection (57P01, an administrator's
                // or a shutdown's termination) before it goes: lost all the same.
                if error.kind == .connectionLost || !connection.isConnected {
                    self.connection = nil
                    // Closed while no transaction was open: nothing of this command reached
                    // the server, so it runs on a new connection, once (a server that keeps
                    // closing it is reported).
                    if reused, !began, !reconnected {
                        reconnected = true
                        attempt -= 1
                        continue
                    }
                    throw TodoError(.dataFile, "\(displayName): the connection to the server was lost (\(self.said(error))); " + (committing
                        ? "the change may or may not have been saved: run \"todo list\" to see"
                        : "nothing was changed"))
                }
                if error.sqlState == "55P03" {
                    // lock_timeout: another connection holds a lock this command needs.
                    let waited = ContinuousClock.now - waitStart
                    guard waited < lockTimeout, !(announced && lockTimeout - waited < .milliseconds(1)) else {
                        throw TodoError(.dataFile, "\(displayName): another connection held a lock on the list for \(Self.seconds(lockTimeout)) seconds; nothing was changed (TODO_LOCK_TIMEOUT sets the wait)")
                    }
                    if !announced {
                        announced = true
                        onWait()
                    }
                    attempt -= 1
                    continue
                }
                if error.isRetryable, attempt < Self.maximumAttempts {
                    // A random pause, growing with each attempt, so that the processes that
                    // met do not meet again at once.
                    usleep(UInt32.random(in: 1_000...UInt32(min(attempt, 10) * 5_000)))
                    continue
                }
                throw serverError(error, attempts: attempt)
            } catch let error as TodoError {
                _ = try? connection.query("ROLLBACK")
                throw error
            } catch {
                _ = try? connection.query("ROLLBACK")
                throw TodoError(.dataFile, "\(displayName): \(reason(error)); nothing was changed")
            }
        }
    }

    /// Sets the session's `lock_timeout` to `limit` (at least a millisecond: 0 would mean no
    /// limit at all).
    private func limitLockWaits(_ connection: PostgresConnection, to limit: Duration) throws(PostgresError) {
        let milliseconds = max(1, Int(limit / .milliseconds(1)))
        guard sessionLockTimeout != milliseconds else { return }
        try connection.query("SELECT set_config('lock_timeout', $1, false)", ["\(milliseconds)ms"])
        sessionLockTimeout = milliseconds
    }

    /// `duration` in seconds as `TODO_LOCK_TIMEOUT` gives them: `10`, `1.5`.
    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    private func serverError(_ error: PostgresError, attempts: Int = 1) -> TodoError {
        let message = said(error)
        switch error.kind {
        case .libraryMissing:
            return TodoError(.dataFile, message)
        case .connection:
            return TodoError(.dataFile, "\(displayName): cannot connect to the server: \(message)")
        case .connectionLost:
            return TodoError(.dataFile, "\(displayName): the connection to the server was lost (\(message)); nothing was changed")
        case .damaged:
            return TodoError(.dataFile, "\(displayName): the database is damaged (\(message)); nothing was changed")
        case .query:
            let retried = error.isRetryable ? " (gave up after \(attempts) attempts: other commands kept changing the list at the same time)" : ""
            return TodoError(.dataFile, "\(displayName): the server refused the command: \(message)\(retried); nothing was changed")
        }
    }

    /// Why a command failed, in plain words: a server's error as ``said(_:)`` puts it, a
    /// todo error by its message, a history that does not decode as such; never a dump of
    /// the error's Swift type, which tells a user nothing.
    func reason(_ error: any Error) -> String {
        switch error {
        case let error as PostgresError: said(error)
        case let error as TodoError: error.message
        case let error as HistoryArchiveError: PlainText.escaping(HistoryMismatch.readable(error.message))
        case is DecodingError: "its saved form is damaged"
        default: PlainText.escaping(String(describing: error))
        }
    }

    /// libpq's messages span lines (a reason, then a hint on a tabbed line): one line here.
    static func oneLine(_ text: String) -> String {
        PlainText.escaping(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
    }
}
