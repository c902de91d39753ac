/// The versions each version of a scope leads to: a dictionary's interface over a sorted
/// array of runs of links, and a dictionary of the few parents with another number.
///
/// Nearly every version leads to exactly one other, and along a chain of appends that other
/// is the next version: parents `p`, `p + 1`, … lead to `c`, `c + 1`, …. One run holds such
/// a stretch whole (its first parent, first child and length), so a straight history keeps
/// one 24-byte run instead of 16 bytes per step, and a step's link costs nothing; a branch
/// or a gap in the versions starts another run. A lookup tries the newest run, and
/// otherwise searches the runs by bisection.
///
/// A parent keeps its place when its children change: a run of one that links to itself (a
/// version never leads to itself) says "see `lists`", or, if `lists` has nothing for it,
/// that the entry was removed. So a branch made after an undo costs a split of its run (at
/// most two inserts into the runs) and the limit dropping the oldest version shortens the
/// first run; dead slots are compacted once they are half of the runs.
@usableFromInline
struct HistoryChildren: Sequence, Sendable {

    /// Parents `parent ..< parent + count` lead to `child ..< child + count`, in step.
    private struct Run: Sendable {
        var parent: HistoryVersion
        var child: HistoryVersion
        var count: UInt64

        /// Whether the parent has no single child here: its list is in `lists`, or it has none.
        /// Only a run of one is a redirect.
        var isRedirect: Bool { parent == child }

        /// The first parent after the run.
        var end: UInt64 { parent.rawValue &+ count }

        /// Whether the link from `parent` to `child` (not a redirect) continues this run.
        func isContinued(by parent: HistoryVersion, _ child: HistoryVersion) -> Bool {
            !isRedirect && parent != child && parent.rawValue == end && child.rawValue == self.child.rawValue &+ count
        }
    }

    /// The runs, sorted by parent, none overlapping another.
    private var runs: ContiguousArray<Run> = []
    /// The children of the parents with no child or with two and more, as a dictionary's.
    private var lists: [HistoryVersion: [HistoryVersion]] = [:]
    /// How many runs are removed entries.
    private var deadCount = 0
    /// Where the children of a parent without a slot are read from, for a scope over a store;
    /// a removed entry's dead slot then says "none", so it is never compacted away.
    var source: (any HistoryChildrenSource)?
    /// The scope these children belong to, which `source` filters by.
    var level = 0

    init() {}

    /// The index of the run holding `parent`, or where a run starting at it would be inserted.
    private func position(of parent: HistoryVersion) -> (index: Int, found: Bool) {
        guard let last = runs.last else { return (0, false) }
        if last.parent <= parent {
            return parent.rawValue < last.end ? (runs.count - 1, true) : (runs.count, false)
        }
        // The first run whose end is past `parent`.
        var low = 0
        var high = runs.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            if runs[middle].end <= parent.rawValue { low = middle + 1 } else { high = middle }
        }
        return (low, runs[low].parent <= parent)
    }

    /// Makes `parent`, which the run at `index` holds, a run of its own, and returns its index.
    private mutating func isolate(_ parent: HistoryVersion, inRunAt index: Int) -> Int {
        let run = runs[index]
        guard run.count > 1 else { return index }
        let before = parent.rawValue - run.parent.rawValue
        let after = run.count - before - 1
        let single = Run(parent: parent, child: HistoryVersion(run.child.rawValue + before), count: 1)
        var pieces: [Run] = []
        if before > 0 { pieces.append(Run(parent: run.parent, child: run.child, count: before)) }
        pieces.append(single)
        if after > 0 {
            pieces.append(Run(
                parent: HistoryVersion(parent.rawValue + 1), child: HistoryVersion(single.child.rawValue + 1), count: after
            ))
        }
        runs.replaceSubrange(index...index, with: pieces)
        return before > 0 ? index + 1 : index
    }

    /// Joins the run at `index` with its neighbours where they continue each other.
    private mutating func merge(around index: Int) {
        var index = index
        if index > 0, runs[index - 1].isContinued(by: runs[index].parent, runs[index].child) {
            runs[index - 1].count += runs[index].count
            runs.remove(at: index)
            index -= 1
        }
        if index + 1 < runs.count, runs[index].isContinued(by: runs[index + 1].parent, runs[index + 1].child) {
            runs[index].count += runs[index + 1].count
            runs.remove(at: index + 1)
        }
    }

    // Not inlinable: the type is not generic, so a client gains nothing from its body.
    @usableFromInline
    subscript(parent: HistoryVersion) -> HistoryVersionList? {
        get {
            let (index, found) = position(of: parent)
            guard found else {
                guard let source else { return nil }
                let saved = source.children(of: parent, inScope: level)
                return saved.isEmpty ? nil : HistoryVersionList(saved)
            }
            let run = runs[index]
            guard run.isRedirect else {
                return [HistoryVersion(run.child.rawValue + (parent.rawValue - run.parent.rawValue))]
            }
            return lists[parent].map(HistoryVersionList.init)
        }
        set {
            let (index, found) = position(of: parent)
            guard found else {
                guard let newValue else {
                    if source != nil {
                        runs.insert(Run(parent: parent, child: parent, count: 1), at: index)
                        deadCount += 1
                    }
                    return
                }
                if newValue.count == 1, newValue[0] != parent {
                    // An append continues the run before it: no insert, and no merge after one.
                    if index > 0, runs[index - 1].isContinued(by: parent, newValue[0]) {
                        runs[index - 1].count += 1
                        merge(around: index - 1)
                    } else {
                        runs.insert(Run(parent: parent, child: newValue[0], count: 1), at: index)
                        merge(around: index)
                    }
                } else {
                    runs.insert(Run(parent: parent, child: parent, count: 1), at: index)
                    lists[parent] = Array(newValue)
                }
                return
            }
            let run = runs[index]
            if !run.isRedirect, let newValue, newValue.count == 1,
               newValue[0].rawValue == run.child.rawValue + (parent.rawValue - run.parent.rawValue) {
                return
            }
            // The limit drops the oldest version: the first run shortens, with no dead slot.
            if newValue == nil, source == nil, !run.isRedirect, run.count > 1, parent == run.parent {
                runs[index] = Run(
                    parent: HistoryVersion(parent.rawValue + 1), child: HistoryVersion(run.child.rawValue + 1),
                    count: run.count - 1
                )
                return
            }
            let slot = isolate(parent, inRunAt: index)
            let wasDead = runs[slot].isRedirect && lists.removeValue(forKey: parent) == nil
            if let newValue, newValue.count == 1, newValue[0] != parent {
                runs[slot].child = newValue[0]
            } else {
                runs[slot].child = parent
                if let newValue { lists[parent] = Array(newValue) }
            }
            let isDead = newValue == nil
            if wasDead != isDead {
                deadCount += isDead ? 1 : -1
            }
            if !runs[slot].isRedirect {
                merge(around: slot)
            } else if isDead {
                compactIfSparse()
            }
        }
    }

    /// Drops the dead slots once they are half the runs and more, joining the runs they
    /// separated: amortized O(1) per removal.
    private mutating func compactIfSparse() {
        guard source == nil, deadCount >= 16, deadCount * 2 >= runs.count else { return }
        var kept = ContiguousArray<Run>()
        kept.reserveCapacity(runs.count - deadCount)
        for run in runs where !(run.isRedirect && lists[run.parent] == nil) {
            if let last = kept.last, last.isContinued(by: run.parent, run.child) {
                kept[kept.count - 1].count += run.count
            } else {
                kept.append(run)
            }
        }
        runs = kept
        deadCount = 0
    }

    @usableFromInline
    subscript(parent: HistoryVersion, default defaultValue: @autoclosure () -> HistoryVersionList) -> HistoryVersionList {
        get { self[parent] ?? defaultValue() }
        set { self[parent] = newValue }
    }

    /// How many versions have an entry: one child, or a list (possibly empty) set for them.
    var count: Int { runs.reduce(0) { $0 + Int($1.count) } - deadCount }

    /// How many runs of links are kept: one for a straight history of appends.
    var runCount: Int { runs.count }

    /// How many versions lead to two or more others, or to none: the entries a straight
    /// history of appends has none of.
    var listCount: Int { lists.count }

    /// The versions held here that lead to two or more others.
    var branchPoints: [HistoryVersion] { lists.compactMap { $0.value.count > 1 ? $0.key : nil } }

    /// The children lists, in the order of ``makeIterator()``.
    var values: [HistoryVersionList] { map(\.value) }

    /// Every parent with its children, in no particular order (as a dictionary's): only an
    /// archive being saved reads them all.
    @usableFromInline
    func makeIterator() -> IndexingIterator<[(key: HistoryVersion, value: HistoryVersionList)]> {
        var entries: [(key: HistoryVersion, value: HistoryVersionList)] = []
        for run in runs where !run.isRedirect {
            for step in 0..<run.count {
                entries.append((HistoryVersion(run.parent.rawValue + step), [HistoryVersion(run.child.rawValue + step)]))
            }
        }
        for (parent, children) in lists { entries.append((parent, HistoryVersionList(children))) }
        return entries.makeIterator()
    }

    /// The facts of the runs' layout that do not hold, each said in a sentence: the runs are
    /// in order and apart, a redirect is a run of one, no two runs continue each other (a
    /// chain of appends is one run), every list has its redirect, and the dead are counted.
    func layoutViolations() -> [String] {
        var violations: [String] = []
        var dead = 0
        for (index, run) in runs.enumerated() {
            if run.count == 0 { violations.append("the run of links at \(run.parent) is empty") }
            if run.isRedirect {
                if run.count != 1 { violations.append("the redirect at \(run.parent) spans \(run.count) versions") }
                if lists[run.parent] == nil { dead += 1 }
            }
            guard index > 0 else { continue }
            let previous = runs[index - 1]
            if previous.end > run.parent.rawValue {
                violations.append("the runs of links at \(previous.parent) and \(run.parent) overlap or are out of order")
            }
            if !run.isRedirect, previous.isContinued(by: run.parent, run.child) {
                violations.append("the runs of links at \(previous.parent) and \(run.parent) are one chain kept as two")
            }
        }
        for parent in lists.keys {
            let (index, found) = position(of: parent)
            if !found || !runs[index].isRedirect {
                violations.append("the branch list of \(parent) has no redirect")
            }
        }
        if dead != deadCount {
            violations.append("the links count \(deadCount) removed entries, and hold \(dead)")
        }
        return violations
    }
}
