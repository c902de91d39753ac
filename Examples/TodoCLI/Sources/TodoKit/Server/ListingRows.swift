import Foundation

/// A person's listing kept as rows of `listings` (schema version 5): the listing that is no
/// version of the list, because someone else wrote since their `list` and their own change
/// then moved it (``TodoServerStore/listing(_:after:became:)``).
///
/// Kept as JSON of every id, it was written again by every command until the next `list`
/// (about 1.1 s per command at 100,000 items). As rows it is written once, and each command
/// then deletes and inserts only the rows of the ids it removes, adds or moves, each placed by
/// an order key between its neighbours' (with gaps, as the items' positions).
///
/// The person's `histories.listing_count` says how many rows there are: a command near the
/// ends of the list reads the first and last rows only, and their count, and finds item N
/// there. A count that disagrees with the rows, or a row that cannot be read, is a damaged
/// database.
enum ListingRows {
    /// The gap between the keys of a listing written from scratch.
    static let spacing: Int64 = 1 << 20

    // MARK: Reading

    /// `author`'s listing, every id in order, with its key; `count` is their `listing_count`.
    static func read(_ connection: PostgresConnection, author: String, count: Int64) throws -> [(id: UUID, key: Int64)] {
        let rows = try connection.query("SELECT id, key FROM listings WHERE author = $1 ORDER BY key", [author])
        let listing = try rows.map(decode)
        guard Int64(listing.count) == count else { throw damaged(author) }
        return listing
    }

    /// `author`'s listing as a command near the ends of the list sees it: the first and last
    /// `rows` ids, and between them `filler` for each id not read (which no item has, so a
    /// position there is never taken as checked; the command then runs on the whole list).
    static func readEnds(_ connection: PostgresConnection, author: String, count: Int64, rows: Int, filler: UUID) throws -> [UUID] {
        guard count > Int64(2 * rows) else { return try read(connection, author: author, count: count).map(\.id) }
        let head = try connection.query("SELECT id, key FROM listings WHERE author = $1 ORDER BY key LIMIT $2::bigint", [author, String(rows)]).map(decode)
        let tail = try connection.query("SELECT id, key FROM listings WHERE author = $1 ORDER BY key DESC LIMIT $2::bigint", [author, String(rows)]).map(decode)
        // Fewer rows than the count says: the rows and the count disagree.
        guard head.count == rows, tail.count == rows, let last = head.last, let first = tail.last, last.key < first.key else { throw damaged(author) }
        var ids = head.map(\.id)
        ids.reserveCapacity(Int(count))
        ids += repeatElement(filler, count: Int(count) - 2 * rows)
        ids += tail.reversed().map(\.id)
        return ids
    }

    private static func decode(_ row: [String?]) throws -> (id: UUID, key: Int64) {
        guard let id = row[0].flatMap({ UUID(parsing: $0) }), let key = row[1].flatMap({ Int64($0) }) else {
            throw PostgresError(kind: .damaged, message: "a row of the listings table is damaged")
        }
        return (id, key)
    }

    private static func damaged(_ author: String) -> PostgresError {
        PostgresError(kind: .damaged, message: "the listings table does not hold the rows of \(PlainText.escaping(author))'s listing that its histories row counts")
    }

    // MARK: Writing

    /// Replaces `author`'s rows by `listing`, keyed from scratch: once, when a listing first
    /// stops being a version of the list (and when keys between two neighbours run out).
    static func writeWhole(_ listing: [UUID], author: String, _ connection: PostgresConnection) throws {
        try connection.query("DELETE FROM listings WHERE author = $1", [author])
        guard !listing.isEmpty else { return }
        let keys = listing.indices.map { String(Int64($0 + 1) * spacing) }
        // One statement for the whole listing: a row per statement would cost a round trip
        // per id.
        try connection.query(
            "INSERT INTO listings (author, key, id) SELECT $1, k, i FROM unnest($2::bigint[], $3::uuid[]) AS t(k, i)",
            [author, array(keys), array(listing.map(\.uuidString))]
        )
    }

    /// Turns `author`'s rows from `old` (every row, as ``read(_:author:count:)`` returns them)
    /// into `new`: deletes the ids it no longer holds or holds elsewhere, and inserts those
    /// between their neighbours' keys, all else untouched; writes `new` whole only when two
    /// neighbours leave no key between them.
    ///
    /// - Returns: How many rows were deleted or inserted.
    static func write(_ new: [UUID], replacing old: [(id: UUID, key: Int64)], author: String, _ connection: PostgresConnection) throws -> Int {
        guard let plan = plan(new, replacing: old) else {
            try writeWhole(new, author: author, connection)
            return old.count + new.count
        }
        try apply(plan, author: author, connection)
        return plan.deleted.count + plan.inserted.count
    }

    /// The rows to delete and insert so that keys ordered give `new`; `nil` when keys run out.
    ///
    /// One pass over both: where they differ, an id `new` does not hold is deleted, an id
    /// `old` does not hold inserted, and of two ids out of place the one nearer its place in
    /// the other stays (the other is deleted, and inserted again where `new` has it). A
    /// command's listing differs from the one before by what it removed, added or moved, so
    /// the plan is about that size.
    static func plan(_ new: [UUID], replacing old: [(id: UUID, key: Int64)]) -> Plan? {
        var plan = Plan()
        var matched = [Int64?](repeating: nil, count: new.count)
        // Built only once an id is out of place: done, edit and rm only drop ids, if any.
        var index: (old: [UUID: Int], new: [UUID: Int])?
        var movedAway = Set<Int>()
        var next = old.startIndex
        var offset = new.startIndex
        while offset < new.endIndex {
            if movedAway.contains(next) {
                plan.deleted.append(old[next].id)
                next += 1
                continue
            }
            if next < old.endIndex, old[next].id == new[offset] {
                matched[offset] = old[next].key
                next += 1
                offset += 1
                continue
            }
            guard next < old.endIndex else { offset += 1; continue }
            if index == nil {
                index = (
                    Dictionary(old.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first }),
                    Dictionary(new.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                )
            }
            guard let at = index?.old[new[offset]], at > next else {
                // New here, or moved here from a place already passed (and deleted there).
                offset += 1
                continue
            }
            guard let wanted = index?.new[old[next].id], wanted > offset else {
                // Gone, or moved to a place already passed (and inserted there).
                plan.deleted.append(old[next].id)
                next += 1
                continue
            }
            if wanted - offset <= at - next {
                // `new[offset]` came from further on: inserted here, deleted there.
                movedAway.insert(at)
                offset += 1
            } else {
                plan.deleted.append(old[next].id)
                next += 1
            }
        }
        plan.deleted += old[next...].map(\.id)
        // Each run of inserted ids between two kept ones gets keys spread between theirs.
        offset = new.startIndex
        while offset < new.endIndex {
            guard matched[offset] == nil else { offset += 1; continue }
            var end = offset
            while end < new.endIndex, matched[end] == nil { end += 1 }
            let below = offset > 0 ? matched[offset - 1] : nil
            let above = end < new.endIndex ? matched[end] : nil
            guard let keys = keys(count: end - offset, between: below, and: above) else { return nil }
            plan.inserted += zip(new[offset..<end], keys).map { ($0, $1) }
            offset = end
        }
        return plan
    }

    /// `count` keys in order strictly between `below` and `above` (`nil`: no bound that side),
    /// or `nil` when the gap is too narrow.
    static func keys(count: Int, between below: Int64?, and above: Int64?) -> [Int64]? {
        let slots = Int64(count + 1)
        let low: Int64
        let high: Int64
        switch (below, above) {
        case let (below?, above?): (low, high) = (below, above)
        case let (below?, nil): (low, high) = (below, below + slots * spacing)
        case let (nil, above?): (low, high) = (above - slots * spacing, above)
        case (nil, nil): (low, high) = (0, slots * spacing)
        }
        let step = (high - low) / slots
        guard step >= 1 else { return nil }
        return (1...count).map { low + step * Int64($0) }
    }

    /// What a command changes of a listing kept as rows.
    struct Plan {
        var deleted: [UUID] = []
        var inserted: [(id: UUID, key: Int64)] = []
    }

    /// What a command near the ends of the list changes of `author`'s listing rows, as
    /// ``TodoServerStore/listing(_:after:became:)`` would on the whole list: the ids it removed
    /// deleted, each item it added placed after the nearest item before it (in `after`) that
    /// the listing holds. Reads the keys of the few items each add walks back over, never the
    /// whole listing.
    ///
    /// `nil` when that takes what was not read: an item moved (its neighbours' order changed
    /// all along the list), a walk back into the stand-ins of the middle, or keys run out; the
    /// command then runs on the whole list.
    ///
    /// The listing holds only items of `before` here: this runs only when nobody else wrote
    /// since the person's last command, which left its listing within the list it wrote.
    static func planOnEnds(
        after: TodoList, changes: ItemChanges, placeholders: Placeholders, author: String, _ connection: PostgresConnection
    ) throws -> Plan? {
        let added = changes.inserted.map { after.items[$0].id }
        let deleted = Set(changes.deleted)
        // A key changed (a move, or keys spread again): the order of others changed with it.
        guard !added.contains(where: deleted.contains) else { return nil }
        var plan = Plan(deleted: changes.deleted)
        guard !added.isEmpty else { return plan }
        let new = Set(added)
        // Each add's walk back: the items before it up to an earlier add, the stand-ins of the
        // middle, or the list's start; which of them the listing holds is asked once for all.
        enum Stop { case add(UUID), middle, start }
        var walks: [(id: UUID, offset: Int, passed: [UUID], stop: Stop)] = []
        for offset in changes.inserted.sorted() {
            var passed: [UUID] = []
            var back = offset - 1
            var stop = Stop.start
            while back >= 0 {
                let id = after.items[back].id
                if new.contains(id) { stop = .add(id); break }
                if placeholders.isPlaceholder(id) { stop = .middle; break }
                passed.append(id)
                back -= 1
            }
            walks.append((after.items[offset].id, offset, passed, stop))
        }
        var held: [UUID: Int64] = [:]
        let passed = walks.flatMap(\.passed)
        if !passed.isEmpty {
            for row in try connection.query("SELECT id, key FROM listings WHERE author = $1 AND id = ANY($2::uuid[])", [author, array(passed.map(\.uuidString))]) {
                let (id, key) = try decode(row)
                held[id] = key
            }
        }
        // The adds after each held item (nil: at the listing's start, or its end), in order.
        enum Anchor: Hashable { case item(Int64), start, end }
        var groupOf: [UUID: Anchor] = [:]
        var groups: [Anchor: [UUID]] = [:]
        var order: [Anchor] = []
        for walk in walks {
            let anchor: Anchor
            if let key = walk.passed.lazy.compactMap({ held[$0] }).first {
                anchor = .item(key)
            } else if case let .add(earlier) = walk.stop, let group = groupOf[earlier] {
                anchor = group
            } else if case .middle = walk.stop {
                // The item it goes after may be any of the middle's.
                return nil
            } else {
                anchor = walk.offset > 0 ? .end : .start
            }
            groupOf[walk.id] = anchor
            if groups[anchor] == nil { order.append(anchor) }
            groups[anchor, default: []].append(walk.id)
        }
        let bounds = try connection.query("SELECT min(key), max(key) FROM listings WHERE author = $1", [author]).first
        let lowest = bounds?[0].flatMap { Int64($0) }
        let highest = bounds?[1].flatMap { Int64($0) }
        for anchor in order {
            let ids = groups[anchor] ?? []
            let range: (Int64?, Int64?)
            switch anchor {
            case .start: range = (nil, lowest)
            case .end: range = (highest, nil)
            case let .item(key):
                let next = try connection.query("SELECT min(key) FROM listings WHERE author = $1 AND key > $2::bigint", [author, String(key)]).first?[0].flatMap { Int64($0) }
                // Adds after the last held item and adds at the end would share keys; the
                // whole list sorts them out.
                if next == nil, groups[.end] != nil { return nil }
                range = (key, next)
            }
            guard let keys = keys(count: ids.count, between: range.0, and: range.1) else { return nil }
            plan.inserted += zip(ids, keys).map { ($0, $1) }
        }
        return plan
    }

    /// Deletes, then inserts (an id moved is deleted first, so no id is held twice).
    ///
    /// - Returns: How many rows the listing gained (negative: lost).
    @discardableResult
    static func apply(_ plan: Plan, author: String, _ connection: PostgresConnection) throws -> Int64 {
        var deleted = 0
        if !plan.deleted.isEmpty {
            deleted = try connection.query(
                "DELETE FROM listings WHERE author = $1 AND id = ANY($2::uuid[]) RETURNING 1", [author, array(plan.deleted.map(\.uuidString))]
            ).count
        }
        if !plan.inserted.isEmpty {
            try connection.query(
                "INSERT INTO listings (author, key, id) SELECT $1, k, i FROM unnest($2::bigint[], $3::uuid[]) AS t(k, i)",
                [author, array(plan.inserted.map { String($0.key) }), array(plan.inserted.map(\.id.uuidString))]
            )
        }
        return Int64(plan.inserted.count - deleted)
    }

    /// A PostgreSQL array literal of plain tokens (numbers, UUIDs).
    private static func array(_ tokens: [String]) -> String {
        "{" + tokens.joined(separator: ",") + "}"
    }
}
