import Foundation
import Revertible

/// One change between two versions of a shared list, as `todo watch` and the shell report
/// what others did: found by comparing the list as last seen with the list now, so a
/// watcher that was away (a server restart) says what it missed the same way.
struct ListChange: Equatable {
    /// What happened to the item. Positions are 1-based, as `todo list` shows them.
    enum Kind: Equatable {
        case added(position: Int, title: String)
        case removed(title: String)
        case edited(position: Int, from: String, to: String)
        case marked(position: Int, title: String, done: Bool)
        /// `shortID`: the item's id as `list` shows it, since the position someone else
        /// moved an item from is no longer the one a reader would type.
        case moved(title: String, shortID: String, from: Int, to: Int)
    }

    var kind: Kind
    var id: UUID
    /// Who made it: `nil` when no one is recorded, `""` for a change made outside `todo`
    /// (psql), which the schema's trigger records without a name.
    var author: String?

    /// The field of `item_changes` that records who made a change of this kind (`position`
    /// for moves, which the server store records for that purpose).
    var field: String {
        switch kind {
        case .added, .removed: "item"
        case .edited: "title"
        case .marked: "done"
        case .moved: "position"
        }
    }

    /// The changes from `before` to `after`, removals first, then additions, edits, done
    /// marks and moves, each in list order.
    ///
    /// An item counts as moved only when its order among the items of both lists changed,
    /// not when others were added or removed before it: the items kept in place are a
    /// longest increasing run of their old positions, and the rest were moved.
    static func between(_ before: TodoList, _ after: TodoList) -> [ListChange] {
        var beforeIndex: [UUID: Int] = [:]
        beforeIndex.reserveCapacity(before.items.count)
        for (index, item) in before.items.enumerated() { beforeIndex[item.id] = index }
        var afterIDs = Set<UUID>()
        afterIDs.reserveCapacity(after.items.count)
        var removed: [ListChange] = []
        var added: [ListChange] = []
        var edited: [ListChange] = []
        var marked: [ListChange] = []
        // The items of both lists, in the new order, with their old positions.
        var common: [(after: Int, before: Int)] = []
        for (index, item) in after.items.enumerated() {
            afterIDs.insert(item.id)
            guard let old = beforeIndex[item.id] else {
                added.append(ListChange(kind: .added(position: index + 1, title: item.title), id: item.id))
                continue
            }
            common.append((index, old))
            let previous = before.items[old]
            if previous.title != item.title {
                edited.append(ListChange(kind: .edited(position: index + 1, from: previous.title, to: item.title), id: item.id))
            }
            if previous.isDone != item.isDone {
                marked.append(ListChange(kind: .marked(position: index + 1, title: item.title, done: item.isDone), id: item.id))
            }
        }
        for item in before.items where !afterIDs.contains(item.id) {
            removed.append(ListChange(kind: .removed(title: item.title), id: item.id))
        }
        let kept = longestIncreasingRun(common.map(\.before))
        var moved: [(after: Int, before: Int)] = []
        for (offset, pair) in common.enumerated() where !kept.contains(offset) { moved.append(pair) }
        var moves: [ListChange] = []
        if !moved.isEmpty {
            // Short ids are unique within the whole list, so they are worked out on it, once.
            let shortIDs = ShortID.ids(for: after.items)
            for pair in moved {
                let item = after.items[pair.after]
                moves.append(ListChange(kind: .moved(title: item.title, shortID: shortIDs[pair.after], from: pair.before + 1, to: pair.after + 1), id: item.id))
            }
        }
        return removed + added + edited + marked + moves
    }

    /// The offsets of one longest strictly increasing run of `values` (patience sorting,
    /// n log n: a list of 100,000 items is compared in a blink).
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        // tails[k]: the offset of the smallest last value of a run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (offset, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[offset] = tails[low - 1] }
            if low == tails.count { tails.append(offset) } else { tails[low] = offset }
        }
        var run = Set<Int>()
        var offset = tails.last ?? -1
        while offset >= 0 {
            run.insert(offset)
            offset = previous[offset]
        }
        return run
    }

    /// One line for the change: `bob added 12 "milk"`, `carol edited 3 "eggs" → "duck eggs"`.
    var line: String {
        let who = Self.name(author)
        switch kind {
        case let .added(position, title):
            return "\(who) added \(position) \(quoted(title))"
        case let .removed(title):
            return "\(who) removed \(quoted(title))"
        case let .edited(position, from, to):
            return "\(who) edited \(position) \(quoted(from)) → \(quoted(to))"
        case let .marked(position, title, done):
            return "\(who) marked \(position) \(quoted(title)) \(done ? "done" : "not done")"
        case let .moved(title, shortID, from, to):
            return "\(who) moved \(quoted(title)) (\(shortID)) from \(from) to \(to)"
        }
    }

    /// How an author is shown: escaped as every name is, or who it could not be.
    static func name(_ author: String?) -> String {
        guard let author else { return "someone" }
        return author.isEmpty ? "someone outside todo" : PlainText.escaping(author)
    }

    /// How many changes of one kind by one person are listed one by one; more are summed up
    /// in a line ("bob added 100,000 items"), so an import does not flood the screen.
    static let listedPerKind = 5

    /// The lines for `changes`, with large groups summed up (see ``listedPerKind``).
    static func lines(_ changes: [ListChange]) -> [String] {
        var counts: [String: Int] = [:]
        for change in changes { counts[change.groupKey, default: 0] += 1 }
        var summed = Set<String>()
        var lines: [String] = []
        for change in changes {
            let key = change.groupKey
            let count = counts[key] ?? 0
            if count <= listedPerKind {
                lines.append(change.line)
            } else if summed.insert(key).inserted {
                lines.append("\(name(change.author)) \(change.summaryVerb) \(ProgressLine.grouped(count)) items")
            }
        }
        return lines
    }

    /// The author and the kind, for summing up.
    private var groupKey: String {
        "\(author.map { "=" + $0 } ?? "?")\u{0}\(summaryVerb)"
    }

    /// The verb of a summed-up line.
    private var summaryVerb: String {
        switch kind {
        case .added: "added"
        case .removed: "removed"
        case .edited: "edited"
        case .marked(_, _, let done): done ? "marked done" : "marked not done"
        case .moved: "moved"
        }
    }
}
