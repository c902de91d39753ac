import Revertible
/// The tables of a todo database, its schema version and how to get there from any earlier
/// one.
///
/// ```sql
/// CREATE TABLE items (            -- one row per item
///     position INTEGER PRIMARY KEY,  -- order key: increasing in list order, with gaps
///     id TEXT NOT NULL UNIQUE,       -- the item's UUID, upper case
///     title TEXT NOT NULL,
///     done INTEGER NOT NULL CHECK (done IN (0, 1)),
///     checksum INTEGER               -- of id, title and done (`ItemRows.checksum`);
/// );                                 -- NULL: written by another program
/// CREATE TRIGGER items_edited_elsewhere ...  -- any SQLite client's edit of a row that
///                                            -- keeps the checksum sets it to NULL
/// CREATE TABLE steps (            -- one row per kept history step
///     version INTEGER PRIMARY KEY,   -- the version the step leads to
///     step BLOB NOT NULL,            -- JSON: the step's parent, label, time, depth and reversion
///     parent INTEGER,                -- the version it starts from (indexed: redo's lookup)
///     scope INTEGER                  -- its scope, 0 for the outermost
/// );
/// CREATE TABLE meta (             -- small named values
///     key TEXT PRIMARY KEY,          -- 'outline': JSON of the history's scopes, current
///     value BLOB NOT NULL            -- version and tags; 'open-scope-notice': see Shell
/// ) WITHOUT ROWID;
/// ```
///
/// `PRAGMA application_id` is ``applicationID`` ("todo" in ASCII), so `file` and `todo`
/// itself can tell a todo database from another program's; `PRAGMA user_version` is the
/// schema version.
enum TodoSchema {
    /// "todo" as a big-endian 32-bit integer, in the database header.
    static let applicationID: Int64 = 0x746F_646F
    /// The schema this `todo` writes, and the newest it reads.
    static var version: Int64 { Int64(migrations.count) }
    /// The first schema whose history is read one step at a time (see ``HistoryRows``).
    static let lazyHistoryVersion: Int64 = 3

    /// `migrations[n]` takes a database from schema version `n` to `n + 1`. Append a step
    /// for every change of the schema; never edit one that has shipped.
    static let migrations: [String] = [
        // 0 → 1: the first schema.
        """
        CREATE TABLE items (
            position INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            done INTEGER NOT NULL CHECK (done IN (0, 1))
        );
        CREATE TABLE steps (
            version INTEGER PRIMARY KEY,
            step BLOB NOT NULL
        );
        CREATE TABLE meta (
            key TEXT PRIMARY KEY,
            value BLOB NOT NULL
        ) WITHOUT ROWID;
        """,
        // 1 → 2: a checksum per item row, so that a byte changed on disk is found where it
        // is read. Another program editing the file goes through SQLite, which runs the
        // trigger: a row it changes without a new checksum is marked as written elsewhere
        // (NULL) and read as it is. A flipped byte runs no trigger, and fails the check.
        """
        ALTER TABLE items ADD COLUMN checksum INTEGER;
        CREATE TRIGGER items_edited_elsewhere AFTER UPDATE OF id, title, done ON items
        WHEN NEW.checksum IS OLD.checksum
            AND (NEW.id IS NOT OLD.id OR NEW.title IS NOT OLD.title OR NEW.done IS NOT OLD.done)
        BEGIN
            UPDATE items SET checksum = NULL WHERE position = NEW.position;
        END;
        """,
        // 2 → 3: a step's parent and scope in columns, so that a command reads the steps it
        // crosses, one row each, not the whole history (see `HistoryRows`). The rows are
        // rewritten once, with the depth each step now saves (`HistoryRows.migrate`).
        """
        ALTER TABLE steps ADD COLUMN parent INTEGER;
        ALTER TABLE steps ADD COLUMN scope INTEGER;
        CREATE INDEX steps_by_parent ON steps (parent);
        """,
    ]

    /// Brings the database to ``version``: creates the tables in a new (empty) database, or
    /// runs the migrations after its version. Call inside a write transaction.
    ///
    /// - Throws: ``DataFileProblem/notTodoDatabase`` for another program's database, and
    ///   ``DataFileProblem/newerSchema(version:)`` for one a newer `todo` wrote.
    static func prepare(_ database: Database) throws(DataFileProblem) {
        let current = try check(database)
        guard current < version else { return }
        do {
            if current == 0 {
                try database.execute("PRAGMA application_id = \(applicationID)", operation: "set up the database")
            }
            for step in migrations[Int(current)...] {
                try database.execute(step, operation: "set up the database")
            }
            if current >= 1, current < 2 {
                // The rows an earlier `todo` wrote are taken as they are, and checked from now on.
                try ItemRows.addMissingChecksums(in: database)
            }
            if current >= 1, current < lazyHistoryVersion {
                try HistoryRows.migrate(in: database, present: ItemRows.load(from: database).list)
            }
            try database.execute("PRAGMA user_version = \(version)", operation: "set up the database")
        } catch {
            throw DataFileProblem(describing: error)
        }
    }

    /// The database's schema version, after checking that it is a todo database this
    /// `todo` can read: `0` for a new, empty database.
    @discardableResult
    static func check(_ database: Database) throws(DataFileProblem) -> Int64 {
        let applicationID: Int64
        let userVersion: Int64
        let objects: Int64
        do {
            applicationID = try database.integer("PRAGMA application_id") ?? 0
            userVersion = try database.integer("PRAGMA user_version") ?? 0
            objects = try database.integer("SELECT count(*) FROM sqlite_schema") ?? 0
        } catch {
            throw DataFileProblem(error)
        }
        if applicationID == 0, userVersion == 0, objects == 0 { return 0 }
        guard applicationID == Self.applicationID, userVersion >= 1 else { throw .notTodoDatabase }
        guard userVersion <= version else { throw .newerSchema(version: userVersion) }
        return userVersion
    }
}
