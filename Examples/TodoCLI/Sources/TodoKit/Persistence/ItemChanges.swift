import Foundation
import Revertible

/// The rows of the `items` table one command must write, found by comparing the list before
/// and after it at the cost of the change, not of the list.
///
/// Each row has an order key (its `position` column): keys increase in list order with gaps
/// between them, so an item inserted or moved between two others gets a key between theirs
/// and no other row is rewritten. Only when two neighbours' keys leave no room (after many
/// inserts at one spot) are the rows around it given new keys, in a window that doubles
/// until it has room.
///
/// The comparison skips the chunks the two `TreeArray`s share: a command copies only the
/// chunks it writes, so every other chunk is the same memory on both sides and cannot
/// differ. What is left is compared by id.
struct ItemChanges {
    /// The gap between the keys of appended items, and of items renumbered from scratch.
    static let spacing: Int64 = 1 << 20
    /// The least gap a widened window must leave between keys, so that the next inserts at
    /// the same spot do not have to widen again at once.
    static let widenedGap: UInt64 = 1 << 10

    /// The order keys of the list after the command, in list order.
    private(set) var keys: [Int64]
    /// Positions (0-based, in the new list) of rows to insert: new items, and items whose
    /// key changed.
    private(set) var inserted: [Int] = []
    /// Ids of rows to delete: removed items, and items whose key changed (deleted first, then
    /// inserted with the new key, so that no key is ever held by two rows at once).
    private(set) var deleted: [UUID] = []
    /// Positions (in the new list) of items whose title or done flag changed, key kept.
    private(set) var updated: [Int] = []

    /// Whether the command changed no row.
    var isEmpty: Bool { inserted.isEmpty && deleted.isEmpty && updated.isEmpty }

    /// The keys of a list written from scratch: `spacing`, `2 × spacing`, ...
    static func freshKeys(count: Int) -> [Int64] {
        (0..<count).map { Int64($0 + 1) * spacing }
    }

    /// The rows that differ between `before` (whose keys are `beforeKeys`) and `after`.
    ///
    /// The keys start as `beforeKeys` itself and each window's stretch is replaced in place,
    /// last window first (so the stretches before it keep their places): a command that
    /// only edits items writes no key and copies no array, and one that adds at the end
    /// appends. Rebuilding a key per item for every command (two arrays of 100,000 for a
    /// one-row change) cost more than finding what changed: at 100,000 items, a scripted
    /// `add` took 1.4 ms a line with it, 1.1 ms without (on tmpfs, where syncs cost nothing).
    init(before: TreeArray<TodoItem>, beforeKeys: [Int64], after: TreeArray<TodoItem>) {
        precondition(beforeKeys.count == before.count, "one key per item")
        var keys = beforeKeys
        // Positions in `after` whose keys are decided below; `keys` holds a stand-in there.
        var unkeyed = Set<Int>()
        // Rows of `before` that are gone or moved, by id, with their keys and positions.
        var loose: [UUID: (key: Int64, position: Int)] = [:]
        // Runs of positions in `after` whose keys are decided below, last first.
        var pending: [Range<Int>] = []
        for window in Self.windows(before, after).reversed() {
            var old = window.before
            var new = window.after
            // Common ends, matched by id, keep their keys; their content may have changed.
            while let o = old.first, let n = new.first, before[o].id == after[n].id {
                if !Self.sameContent(before[o], after[n]) { updated.append(n) }
                old = old.dropFirst()
                new = new.dropFirst()
            }
            while let o = old.last, let n = new.last, before[o].id == after[n].id {
                if !Self.sameContent(before[o], after[n]) { updated.append(n) }
                old = old.dropLast()
                new = new.dropLast()
            }
            for position in old {
                loose[before[position].id] = (beforeKeys[position], position)
            }
            // Between the common ends, the old keys give way to stand-ins for the new items;
            // a window of edits alone has nothing between them, and its keys stay as they are.
            if !old.isEmpty || !new.isEmpty {
                keys.replaceSubrange(old, with: repeatElement(0, count: new.count))
            }
            if !new.isEmpty {
                unkeyed.formUnion(new)
                pending.append(new)
            }
        }
        pending.reverse()
        assert(keys.count == after.count)

        // In each run, the moved items whose old keys still fit, in order, keep them: the
        // longest increasing run of old keys between the run's neighbours.
        for run in pending {
            let left = run.lowerBound > 0 ? keys[run.lowerBound - 1] : nil
            let right = run.upperBound < keys.count ? keys[run.upperBound] : nil
            var candidates: [(position: Int, key: Int64)] = []
            for position in run {
                guard let key = loose[after[position].id]?.key else { continue }
                if let left, key <= left { continue }
                if let right, key >= right { continue }
                candidates.append((position, key))
            }
            for kept in Self.longestIncreasing(candidates) {
                let id = after[kept.position].id
                keys[kept.position] = kept.key
                unkeyed.remove(kept.position)
                // The row stays; only its content may need writing.
                if let old = loose[id], !Self.sameContent(before[old.position], after[kept.position]) {
                    updated.append(kept.position)
                }
                loose[id] = nil
            }
        }
        // What is still loose is gone, or moved and needs a new key: either way its row goes.
        deleted = Array(loose.keys)

        // Give keys to the rest, run by run.
        var rewritten: [Int: Bool] = [:]
        for run in pending {
            var start = run.lowerBound
            while start < run.upperBound {
                guard unkeyed.contains(start) else { start += 1; continue }
                var end = start
                while end < run.upperBound, unkeyed.contains(end) { end += 1 }
                Self.fill(start ..< end, in: &keys, unkeyed: &unkeyed, rewritten: &rewritten)
                start = end
            }
        }
        self.keys = keys
        // Rows given a new key that had one (a widened window's): delete them first. Moved
        // rows are in `deleted` already.
        for (position, hadKey) in rewritten.sorted(by: { $0.key < $1.key }) {
            inserted.append(position)
            if hadKey { deleted.append(after[position].id) }
        }
        let insertedSet = Set(inserted)
        updated = updated.filter { !insertedSet.contains($0) }.sorted()
    }

    static func sameContent(_ a: TodoItem, _ b: TodoItem) -> Bool {
        a.title == b.title && a.isDone == b.isDone
    }

    // MARK: Finding what differs

    /// The stretches of the two lists outside the chunks they share, paired in order: between
    /// two windows, both lists hold the same chunks.
    static func windows(_ before: TreeArray<TodoItem>, _ after: TreeArray<TodoItem>) -> [(before: Range<Int>, after: Range<Int>)] {
        // A chunk is identified by the address of its storage: both trees are alive here, so
        // two chunks at one address are one chunk, holding the same items. (Empty chunks have
        // no storage of their own and are never matched.)
        func chunks(_ tree: TreeArray<TodoItem>) -> [(address: UnsafeRawPointer?, start: Int, count: Int)] {
            var result: [(UnsafeRawPointer?, Int, Int)] = []
            var start = 0
            tree.forEachChunk { buffer in
                result.append((buffer.isEmpty ? nil : UnsafeRawPointer(buffer.baseAddress), start, buffer.count))
                start += buffer.count
            }
            return result
        }
        let old = chunks(before)
        let new = chunks(after)
        var index: [UnsafeRawPointer: Int] = [:]
        index.reserveCapacity(old.count)
        for (offset, chunk) in old.enumerated() {
            if let address = chunk.address { index[address] = offset }
        }
        var windows: [(before: Range<Int>, after: Range<Int>)] = []
        var oldEnd = 0
        var newEnd = 0
        var lastMatched = -1
        for chunk in new {
            guard let address = chunk.address, let match = index[address], match > lastMatched else { continue }
            lastMatched = match
            let oldStart = old[match].start
            if oldStart > oldEnd || chunk.start > newEnd {
                windows.append((oldEnd ..< oldStart, newEnd ..< chunk.start))
            }
            oldEnd = oldStart + chunk.count
            newEnd = chunk.start + chunk.count
        }
        if oldEnd < before.count || newEnd < after.count {
            windows.append((oldEnd ..< before.count, newEnd ..< after.count))
        }
        return windows
    }

    /// The longest subsequence of `candidates` whose keys increase (patience sorting).
    static func longestIncreasing(_ candidates: [(position: Int, key: Int64)]) -> [(position: Int, key: Int64)] {
        guard candidates.count > 1 else { return candidates }
        var tails: [Int] = []           // indices into candidates: the best tail of each length
        var previous = [Int](repeating: -1, count: candidates.count)
        for (index, candidate) in candidates.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if candidates[tails[middle]].key < candidate.key { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [(position: Int, key: Int64)] = []
        var index = tails.last!
        while index >= 0 {
            result.append(candidates[index])
            index = previous[index]
        }
        return result.reversed()
    }

    // MARK: Giving keys

    /// Gives keys to the positions in `run` (all in `unkeyed`), between their neighbours';
    /// widens the range, taking new keys for the neighbours too, when there is no room.
    /// Every position given a key is added to `rewritten`, with whether it had one before,
    /// and leaves `unkeyed`.
    static func fill(_ run: Range<Int>, in keys: inout [Int64], unkeyed: inout Set<Int>, rewritten: inout [Int: Bool]) {
        var range = run
        var minimumGap: UInt64 = 1
        while true {
            let left = range.lowerBound > 0 ? keys[range.lowerBound - 1] : nil
            let right = range.upperBound < keys.count ? keys[range.upperBound] : nil
            if let spread = spread(count: range.count, left: left, right: right, minimumGap: minimumGap) {
                for (offset, position) in range.enumerated() {
                    if rewritten[position] == nil { rewritten[position] = !unkeyed.contains(position) }
                    keys[position] = spread[offset]
                    unkeyed.remove(position)
                }
                return
            }
            // No room: take in the neighbours on both sides, as many as the range holds.
            let width = max(range.count, 1)
            var lower = max(0, range.lowerBound - width)
            var upper = min(keys.count, range.upperBound + width)
            // A neighbouring run still waiting for keys joins this one.
            while upper < keys.count, unkeyed.contains(upper) { upper += 1 }
            while lower > 0, unkeyed.contains(lower - 1) { lower -= 1 }
            range = lower ..< upper
            minimumGap = widenedGap
        }
    }

    /// `count` increasing keys strictly between `left` and `right` (no bound when `nil`), at
    /// least `minimumGap` apart and from the bounds; `nil` if they do not fit.
    static func spread(count: Int, left: Int64?, right: Int64?, minimumGap: UInt64) -> [Int64]? {
        let (low, high): (Int64, Int64)
        switch (left, right) {
        case (nil, nil):
            low = 0
            let (product, overflow) = spacing.multipliedReportingOverflow(by: Int64(count + 1))
            guard !overflow else { return nil }
            high = product
        case let (left?, nil):
            low = left
            let (product, overflow1) = spacing.multipliedReportingOverflow(by: Int64(count + 1))
            let (sum, overflow2) = left.addingReportingOverflow(product)
            guard !overflow1, !overflow2 else { return nil }
            high = sum
        case let (nil, right?):
            high = right
            let (product, overflow1) = spacing.multipliedReportingOverflow(by: Int64(count + 1))
            let (difference, overflow2) = right.subtractingReportingOverflow(product)
            guard !overflow1, !overflow2 else { return nil }
            low = difference
        case let (left?, right?):
            guard left < right else { return nil }
            low = left
            high = right
        }
        // The exact distance, even across zero: the bit pattern of the wrapped difference.
        let distance = UInt64(bitPattern: high &- low)
        let step = distance / UInt64(count + 1)
        guard step >= max(minimumGap, 1) else { return nil }
        return (1...count).map { low &+ Int64(bitPattern: step &* UInt64($0)) }
    }
}
