/// The tables of a todo list on a PostgreSQL server, their version, and how to get there from
/// any earlier one.
///
/// ```sql
/// CREATE TABLE schema_version (version integer NOT NULL);   -- one row
/// CREATE TABLE items (               -- one row per item
///     position bigint NOT NULL,      -- order key: increasing in list order, with gaps
///     id uuid PRIMARY KEY,           -- the item's stable id (list shows its start)
///     title text NOT NULL,
///     done boolean NOT NULL
/// );
/// CREATE TABLE histories (           -- one row per person
///     author text PRIMARY KEY,       -- the name of --as
///     state text NOT NULL,           -- JSON: their history (steps, tags, tree, times) and
///                                    -- the list as their history last saw it
///     listing text                   -- JSON: the item ids of their last `list`, in order
/// );
/// CREATE TABLE item_changes (        -- who changed what last, for skipped parts' messages
///     id uuid NOT NULL,
///     field text NOT NULL,           -- 'title', 'done', or 'item' (added or removed)
///     author text NOT NULL,
///     at timestamptz NOT NULL,
///     PRIMARY KEY (id, field)
/// );
/// -- version 2: a command costs about its change, not the list (issue 25)
/// CREATE TABLE list_version (version bigint NOT NULL);  -- one row: +1 per write of items
/// CREATE TABLE item_log (            -- each written item as it was before that write
///     version bigint NOT NULL,       -- the list_version the write made
///     id uuid NOT NULL,
///     position bigint,               -- NULL: the item was not in the list before
///     title text,
///     done boolean,
///     PRIMARY KEY (version, id)
/// );
/// ALTER TABLE histories ADD seen_version bigint;     -- the list their history's present is:
///                                    -- NULL, the present is in `state` (version 1's way)
/// ALTER TABLE histories ADD listing_version bigint;  -- with `listing` NULL: their listing
///                                    -- is the list at this version
/// CREATE TABLE steps (               -- each person's steps, one row each; their `state`
///     author text NOT NULL,          -- then holds the outline only (scopes, tags, current)
///     version bigint NOT NULL,
///     step text NOT NULL,            -- JSON: the step as the history archive encodes it
///     PRIMARY KEY (author, version)
/// );
/// -- version 3: a skip note names the person whose change is in the way (issue 35 item 8),
/// -- so each person's latest change of a field is kept, not only the latest of anyone's
/// ALTER TABLE item_changes DROP CONSTRAINT item_changes_pkey;
/// ALTER TABLE item_changes ADD PRIMARY KEY (id, field, author);
/// ALTER TABLE item_changes ADD value text;  -- the title, or 't'/'f', they wrote; NULL for 'item'
/// -- and a row of items written by anything but todo (psql) is a change of its own: a
/// -- trigger gives it a list version, logs the row as it was and records it in item_changes
/// -- with the author '' (a name --as refuses), so every history still reads (item 4)
/// CREATE FUNCTION todo_outside_change() ...;
/// CREATE TRIGGER items_outside_change AFTER INSERT OR UPDATE OR DELETE ON items FOR EACH ROW
///     WHEN (current_setting('todo.writer', true) IS DISTINCT FROM 'todo') ...;
/// CREATE FUNCTION todo_outside_truncate() ...;   -- TRUNCATE: every row, as one version
/// CREATE TRIGGER items_outside_truncate BEFORE TRUNCATE ON items FOR EACH STATEMENT ...;
/// -- version 4: a command reads the steps it crosses, one row each, not a person's whole
/// -- history (issue 37 item 3, see `PersonHistoryRows`)
/// ALTER TABLE steps ADD parent bigint;   -- the version the step starts from
/// ALTER TABLE steps ADD scope integer;   -- its scope, 0 for the outermost
/// CREATE INDEX steps_by_parent ON steps (author, parent);   -- redo's lookup
/// -- version 5: a stale listing costs the change, and the log has a horizon (issue 37 item 3)
/// CREATE TABLE listings (            -- a person's listing that is no version of the list
///     author text NOT NULL,          -- (someone else wrote since their `list`, and their
///     key bigint NOT NULL,           -- own change moved it since): written once, then only
///     id uuid NOT NULL,              -- the ids their own changes add, move or remove
///     PRIMARY KEY (author, id)
/// );
/// CREATE INDEX listings_by_key ON listings (author, key);   -- order, and item N
/// ALTER TABLE histories ADD listing_count bigint;   -- NOT NULL: their listing is these rows
/// ALTER TABLE histories ADD horizon_version bigint; -- the list version their history was
///                                    -- rebased onto: what they did before lies beyond the
///                                    -- horizon, and `undo` says so when it reaches it
/// ALTER TABLE list_version ADD log_floor bigint NOT NULL DEFAULT 0;  -- the oldest version
///                                    -- the log still rebuilds
/// ```
///
/// A person's history is saved without its present from version 2 on: the present is the list
/// at `seen_version`, rebuilt from the items and the log of what was written since. So a
/// command writes its new step and the rows it changed, not a copy of the whole list and
/// history; the log is trimmed to what some person's version still needs, and from version 5
/// on to the horizon (``TodoServerStore/logHorizon`` list versions) whatever anyone needs.
/// From version 4 on, it also reads only its outline and the steps it crosses, not the
/// person's whole history.
enum ServerSchema {
    /// The version this `todo` writes, and the newest it reads.
    static var version: Int { migrations.count }
    /// The first version whose histories are read one step at a time (``PersonHistoryRows``).
    static let lazyHistoryVersion = 4

    /// `migrations[n]` takes the database from version `n` to `n + 1`. Append a step for
    /// every change; never edit one that has shipped.
    static let migrations: [[String]] = [
        [
            "CREATE TABLE items (position bigint NOT NULL, id uuid PRIMARY KEY, title text NOT NULL, done boolean NOT NULL)",
            "CREATE INDEX items_by_position ON items (position)",
            "CREATE TABLE histories (author text PRIMARY KEY, state text NOT NULL, listing text)",
            "CREATE TABLE item_changes (id uuid NOT NULL, field text NOT NULL, author text NOT NULL, at timestamptz NOT NULL, PRIMARY KEY (id, field))",
        ],
        [
            "CREATE TABLE list_version (version bigint NOT NULL)",
            "INSERT INTO list_version VALUES (0)",
            "CREATE TABLE item_log (version bigint NOT NULL, id uuid NOT NULL, position bigint, title text, done boolean, PRIMARY KEY (version, id))",
            "ALTER TABLE histories ADD seen_version bigint",
            "ALTER TABLE histories ADD listing_version bigint",
            "CREATE TABLE steps (author text NOT NULL, version bigint NOT NULL, step text NOT NULL, PRIMARY KEY (author, version))",
        ],
        [
            // The rows of version 2 stay: each is some person's latest change of that field,
            // which is all version 3 keeps per person too.
            "ALTER TABLE item_changes DROP CONSTRAINT item_changes_pkey",
            "ALTER TABLE item_changes ADD PRIMARY KEY (id, field, author)",
            // The value each person wrote: the one whose value the item holds now is the one
            // in the way, whoever wrote it back since (an undo restores an older value).
            "ALTER TABLE item_changes ADD value text",
            // A person's present is the list at their version, rebuilt from the rows and the
            // log (see `TodoServerStore.ListVersions`): a row inserted or deleted by hand,
            // unlogged, would be in that past too, and their steps would no longer apply to
            // it. Logged as a version of its own, it is absorbed as another writer's change.
            // Each row gets its own version, so a statement of many rows logs each.
            """
            CREATE FUNCTION todo_outside_change() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                next bigint;
            BEGIN
                UPDATE list_version SET version = version + 1 RETURNING version INTO next;
                IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.id <> OLD.id) THEN
                    INSERT INTO item_log (version, id, position, title, done) VALUES (next, NEW.id, NULL, NULL, NULL)
                        ON CONFLICT DO NOTHING;
                    INSERT INTO item_changes (id, field, author, at) VALUES (NEW.id, 'item', '', clock_timestamp())
                        ON CONFLICT (id, field, author) DO UPDATE SET at = EXCLUDED.at;
                END IF;
                IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
                    INSERT INTO item_log (version, id, position, title, done) VALUES (next, OLD.id, OLD.position, OLD.title, OLD.done)
                        ON CONFLICT DO NOTHING;
                END IF;
                IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND NEW.id <> OLD.id) THEN
                    INSERT INTO item_changes (id, field, author, at) VALUES (OLD.id, 'item', '', clock_timestamp())
                        ON CONFLICT (id, field, author) DO UPDATE SET at = EXCLUDED.at;
                ELSIF TG_OP = 'UPDATE' THEN
                    IF NEW.title IS DISTINCT FROM OLD.title THEN
                        INSERT INTO item_changes (id, field, author, at, value) VALUES (NEW.id, 'title', '', clock_timestamp(), NEW.title)
                            ON CONFLICT (id, field, author) DO UPDATE SET at = EXCLUDED.at, value = EXCLUDED.value;
                    END IF;
                    IF NEW.done IS DISTINCT FROM OLD.done THEN
                        INSERT INTO item_changes (id, field, author, at, value) VALUES (NEW.id, 'done', '', clock_timestamp(), CASE WHEN NEW.done THEN 't' ELSE 'f' END)
                            ON CONFLICT (id, field, author) DO UPDATE SET at = EXCLUDED.at, value = EXCLUDED.value;
                    END IF;
                END IF;
                -- Heard by `todo watch` once the psql session commits, as a todo's own write is.
                PERFORM pg_notify('todo_changes', next::text);
                RETURN NULL;
            END
            $$
            """,
            // `todo` sets `todo.writer` for its own writes, which it logs itself (and whose
            // author it knows); the condition keeps the function from even being called then.
            """
            CREATE TRIGGER items_outside_change AFTER INSERT OR UPDATE OR DELETE ON items FOR EACH ROW
                WHEN (current_setting('todo.writer', true) IS DISTINCT FROM 'todo') EXECUTE FUNCTION todo_outside_change()
            """,
            // TRUNCATE fires no row trigger: every row is logged as removed, before it goes,
            // as one version. The todo itself never truncates the items.
            """
            CREATE FUNCTION todo_outside_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                next bigint;
            BEGIN
                UPDATE list_version SET version = version + 1 RETURNING version INTO next;
                INSERT INTO item_log (version, id, position, title, done) SELECT next, id, position, title, done FROM items
                    ON CONFLICT DO NOTHING;
                INSERT INTO item_changes (id, field, author, at) SELECT id, 'item', '', clock_timestamp() FROM items
                    ON CONFLICT (id, field, author) DO UPDATE SET at = EXCLUDED.at;
                PERFORM pg_notify('todo_changes', next::text);
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER items_outside_truncate BEFORE TRUNCATE ON items FOR EACH STATEMENT EXECUTE FUNCTION todo_outside_truncate()",
        ],
        [
            // The rows saved before stay as they are, their new columns NULL, and each
            // history is rewritten by its person's next command that writes, not here: that
            // command rebuilds the person's present and reads their history anyway, whereas
            // here every history would be read in the transaction each connecting todo waits
            // for, and one damaged history would stop everyone's commands rather than its
            // person's. Until then a history saved before is read whole (its `state` has no
            // `format`, see `SavedHistory`).
            "ALTER TABLE steps ADD parent bigint",
            "ALTER TABLE steps ADD scope integer",
            "CREATE INDEX steps_by_parent ON steps (author, parent)",
        ],
        [
            // A listing that is no version of the list is kept as rows, written once, and
            // then changed by the ids a command adds, moves or removes: as JSON of every id
            // it was written again by each command (about 1.1 s at 100,000 items).
            "CREATE TABLE listings (author text NOT NULL, key bigint NOT NULL, id uuid NOT NULL, PRIMARY KEY (author, id))",
            "CREATE INDEX listings_by_key ON listings (author, key)",
            "ALTER TABLE histories ADD listing_count bigint",
            "ALTER TABLE histories ADD horizon_version bigint",
            // 0: the log of a database of version 4 was trimmed only of what no history or
            // listing needed, so every version anyone stands at is still rebuilt.
            "ALTER TABLE list_version ADD log_floor bigint NOT NULL DEFAULT 0",
        ],
    ]

    /// A key for `pg_advisory_xact_lock`: the first `todo` processes to meet a new database
    /// create its tables one after the other ("todo" in ASCII).
    static let lockKey = "1953457263"

    /// Brings the database to ``version``, in a transaction of its own: creates the tables
    /// in a new database, or runs the migrations after its version.
    ///
    /// - Throws: a ``TodoError`` that says why, for a database a newer `todo` made (which is
    ///   left untouched) or one with tables of another program.
    static func prepare(_ connection: PostgresConnection, name: String) throws -> Void {
        try connection.query("BEGIN")
        do {
            // Read committed: after the lock, each statement sees what the process before
            // committed.
            try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
            let current = try currentVersion(connection, name: name)
            if current < version {
                if current == 0 {
                    try connection.query("CREATE TABLE schema_version (version integer NOT NULL)")
                    try connection.query("INSERT INTO schema_version VALUES (0)")
                }
                for step in migrations[current...] {
                    for statement in step { try connection.query(statement) }
                }
                try connection.query("UPDATE schema_version SET version = $1::integer", [String(version)])
            }
            try connection.query("COMMIT")
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
    }

    /// The database's version, after checking that this `todo` can use it: 0 for a new one.
    static func currentVersion(_ connection: PostgresConnection, name: String) throws -> Int {
        let tables = try connection.query("SELECT to_regclass('schema_version') IS NOT NULL, to_regclass('items') IS NOT NULL")
        guard tables.first?[0] == "t" else {
            if tables.first?[1] == "t" {
                throw TodoError(.dataFile, "\(name): the database has an items table but no schema_version: it is not a todo database; it was left untouched")
            }
            return 0
        }
        let rows = try connection.query("SELECT version FROM schema_version")
        guard rows.count == 1, let text = rows[0][0], let found = Int(text) else {
            throw TodoError(.dataFile, "\(name): the todo schema_version table does not hold one version; the database was left untouched")
        }
        guard found <= version else {
            throw TodoError(.dataFile, "\(name): the database was made by a newer todo (schema version \(found); this todo knows up to \(version)): use a newer todo; the database was left untouched")
        }
        return found
    }
}
