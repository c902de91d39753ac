/// The versions each version of a scope leads to: a dictionary's interface over a sorted
/// array of one link per parent, and a dictionary of the few parents with another number.
///
/// Nearly every version leads to exactly one other. A `Dictionary` keeps at most 3/4 of its
/// buckets full, so a pair of versions cost it 32 to 64 bytes (about 49 bytes per title edit
/// at 1,000 steps, an eighth of the step); here it costs the pair's 16 bytes. A lookup tries
/// the newest parent, then the slot at the version's offset from the oldest (right along a
/// chain of appends), and otherwise searches by bisection.
///
/// A parent keeps its slot when its children change: a link to itself (a version never leads
/// to itself) says "see `lists`", or, if `lists` has nothing for it, that the entry was
/// removed. So a branch made after an undo, or the limit dropping the oldest version, costs
/// no shift of the array; dead slots are compacted once they are half of it.
@usableFromInline
struct HistoryChildren: Sequence, Sendable {

    private struct Link: Sendable {
        var parent: HistoryVersion
        var child: HistoryVersion

        /// Whether the parent has no single child here: its list is in `lists`, or it has none.
        var isRedirect: Bool { parent == child }
    }

    /// One slot per parent, sorted by parent.
    private var links: ContiguousArray<Link> = []
    /// The children of the parents with no child or with two and more, as a dictionary's.
    private var lists: [HistoryVersion: [HistoryVersion]] = [:]
    /// How many slots of `links` are removed entries.
    private var deadCount = 0
    /// Where the children of a parent without a slot are read from, for a scope over a store;
    /// a removed entry's dead slot then says "none", so it is never compacted away.
    var source: (any HistoryChildrenSource)?
    /// The scope these children belong to, which `source` filters by.
    var level = 0

    init() {}

    /// The index of `parent`'s slot, or where it would be inserted.
    private func position(of parent: HistoryVersion) -> (index: Int, found: Bool) {
        guard let first = links.first, let last = links.last else { return (0, false) }
        if last.parent == parent { return (links.count - 1, true) }
        if last.parent < parent { return (links.count, false) }
        if parent < first.parent { return (0, false) }
        let offset = parent.rawValue - first.parent.rawValue
        if offset < UInt64(links.count), links[Int(offset)].parent == parent {
            return (Int(offset), true)
        }
        var low = 0
        var high = links.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            if links[middle].parent < parent { low = middle + 1 } else { high = middle }
        }
        return (low, links[low].parent == parent)
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
            let link = links[index]
            guard link.isRedirect else { return [link.child] }
            return lists[parent].map(HistoryVersionList.init)
        }
        set {
            let (index, found) = position(of: parent)
            guard found else {
                guard let newValue else {
                    if source != nil {
                        links.insert(Link(parent: parent, child: parent), at: index)
                        deadCount += 1
                    }
                    return
                }
                if newValue.count == 1 {
                    links.insert(Link(parent: parent, child: newValue[0]), at: index)
                } else {
                    links.insert(Link(parent: parent, child: parent), at: index)
                    lists[parent] = Array(newValue)
                }
                return
            }
            let wasDead = links[index].isRedirect && lists.removeValue(forKey: parent) == nil
            if let newValue, newValue.count == 1 {
                links[index].child = newValue[0]
            } else {
                links[index].child = parent
                if let newValue { lists[parent] = Array(newValue) }
            }
            let isDead = newValue == nil
            if wasDead != isDead {
                deadCount += isDead ? 1 : -1
                if isDead { compactIfSparse() }
            }
        }
    }

    /// Drops the dead slots once they are half the array and more: amortized O(1) per
    /// removal, as the limit drops one oldest version per recorded step.
    private mutating func compactIfSparse() {
        guard source == nil, deadCount >= 16, deadCount * 2 >= links.count else { return }
        links.removeAll { $0.isRedirect && lists[$0.parent] == nil }
        deadCount = 0
    }

    @usableFromInline
    subscript(parent: HistoryVersion, default defaultValue: @autoclosure () -> HistoryVersionList) -> HistoryVersionList {
        get { self[parent] ?? defaultValue() }
        set { self[parent] = newValue }
    }

    /// How many versions have an entry: one child, or a list (possibly empty) set for them.
    var count: Int { links.count - deadCount }

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
        let single = links.lazy.filter { !$0.isRedirect }.map { (key: $0.parent, value: [$0.child] as HistoryVersionList) }
        let several = lists.map { (key: $0.key, value: HistoryVersionList($0.value)) }
        return (Array(single) + several).makeIterator()
    }
}
