import TreeArrayThreadLocal

// A history that records a reducer's run keeps no copy of the trees the reducer writes: it
// lends them to the present for the run, and each tree's first write tells this journal what
// it overwrote. Holding a copy instead would make every write copy the path of chunks the
// copy shares (2.4 to 3 times a plain reducer's cost, issue 39), and finding the change
// afterwards would compare the two trees. The journal never decides a step on its own: a
// tree it cannot vouch for (written twice, replaced, written through a copy) gets its older
// version back from it, whole, and the history compares as it would without a journal.
// A `TextBuffer` is lent through the same journal (TextBuffer/TextBuffer+Journal.swift): its
// entry is a ``TreeArrayJournalStorageRecord``, which keeps what its one write replaced.

/// The trees (and texts) a history lent to the present for one run of a reducer on this
/// thread, and the first write each of them took.
@usableFromInline
package final class TreeArrayJournal {

    /// One entry per lent tree, in the order the history found them. Unchecked: a journal is
    /// used on the one thread it is open on, and no access to this or an entry's fields spans
    /// a call that could reach it again; the run-time checks (on these and the entries'
    /// fields) cost 600 instructions a keystroke in a transaction (callgrind).
    @exclusivity(unchecked) @usableFromInline package var entries: [TreeArrayJournalEntry] = []

    @usableFromInline
    package init() {}

    /// Lends `tree` for the run, unless another entry lends the same storage (two places of
    /// the value holding one tree: a write to either would be taken for both). Returns the
    /// entry, or `nil` when the storage is already lent.
    @inlinable
    package func lend<Element>(_ tree: TreeArray<Element>) -> TreeArrayJournalRecord<Element>? {
        guard entry(for: tree.root) == nil else { return nil }
        let record = TreeArrayJournalRecord(tree)
        entries.append(record)
        return record
    }

    /// Lends the storage `entry` was made for, unless another entry lends it already: what
    /// lending a tree does, for storage of another module (a `TextBuffer`'s). Returns whether
    /// it was lent.
    @inlinable
    package func lend(_ entry: TreeArrayJournalEntry) -> Bool {
        guard let root = entry.root, self.entry(for: root) == nil else { return false }
        entries.append(entry)
        return true
    }

    /// Makes this journal the one the trees' writes on this thread consult, until ``close()``.
    /// A journal already open (a reducer recording inside another's run) keeps its place, and
    /// this one stays closed: returns whether it opened.
    @usableFromInline
    package func open() -> Bool {
        guard treeArrayOpenJournal() == nil else { return false }
        treeArraySetOpenJournal(Unmanaged.passUnretained(self).toOpaque())
        return true
    }

    /// Stops the trees' writes on this thread consulting this journal.
    @usableFromInline
    package func close() {
        if treeArrayOpenJournal() == Unmanaged.passUnretained(self).toOpaque() {
            treeArraySetOpenJournal(nil)
        }
    }

    /// The journal open on this thread, if any.
    @inlinable
    package static var current: TreeArrayJournal? {
        treeArrayOpenJournal().map { Unmanaged<TreeArrayJournal>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The entry that lends the tree whose root is `root`.
    @usableFromInline
    package func entry(for root: AnyObject) -> TreeArrayJournalEntry? {
        for entry in entries where entry.root === root {
            return entry
        }
        return nil
    }
}

/// A lent tree, whatever its element type.
@usableFromInline
package class TreeArrayJournalEntry {

    /// The lent tree's root, held so that the version before the run can always be rebuilt:
    /// as lent, then as the journaled write left it. Let go during that write, which then
    /// finds the root unshared and writes in place; `nil` once the entry holds the older
    /// version whole.
    @exclusivity(unchecked) @usableFromInline package final var root: AnyObject?

    @usableFromInline
    package init(root: AnyObject) {
        self.root = root
    }
}

/// Lent storage of another module's type (a `TextBuffer`), whose writes that module
/// journals: the one write the journal vouches for, or the storage's version before the run,
/// kept whole once the journal can no longer vouch. The same states as
/// ``TreeArrayJournalRecord``'s; the module that owns the storage moves between them, and its
/// objects are held untyped: a generic entry's optional fields are destroyed through run-time
/// metadata, which cost about 1,400 instructions a run (a keystroke in a transaction).
@usableFromInline
package final class TreeArrayJournalStorageRecord: TreeArrayJournalEntry {

    // Unchecked exclusivity, as the journal's `entries`.
    /// The first write, if it was one the journal records: the owning module's account of it.
    @exclusivity(unchecked) @usableFromInline package var write: AnyObject?
    /// The root of the version before the run, once a second or an unrecorded write came.
    @exclusivity(unchecked) @usableFromInline package var before: AnyObject?
    /// The lent root, when the first write found it shared (see
    /// ``TreeArrayJournalRecord/shared``).
    @exclusivity(unchecked) @usableFromInline package var shared: AnyObject?
}

/// A lent tree of `Element`s: the one write the journal vouches for, or the tree's version
/// before the run, kept whole once the journal can no longer vouch.
@usableFromInline
package final class TreeArrayJournalRecord<Element>: TreeArrayJournalEntry {

    /// The first write, if it was one of the three the journal records.
    @usableFromInline
    package private(set) var write: TreeArrayJournaledWrite<Element>?
    /// The version before the run, once a second or an unrecorded write came.
    package private(set) var before: TreeArray<Element>?
    /// The lent storage, when the first write found it shared (a copy of the tree written, or
    /// the tree written while a copy holds it): that write copies it anyway, and this is then
    /// the version before the run in its own storage, which a dropped copy leaves the present
    /// holding. Rebuilt from the written copy instead, it would be equal in other chunks, and
    /// later comparisons with the present would walk them (issue 39, seed 1517).
    @usableFromInline var shared: TreeArray<Element>?

    @usableFromInline
    init(_ tree: TreeArray<Element>) {
        super.init(root: tree.root)
    }

    /// Whether the journal still vouches for `tree`: it is the lent tree with at most the
    /// journaled write, not a replacement nor a copy written elsewhere.
    @usableFromInline
    package func vouches(for tree: TreeArray<Element>) -> Bool {
        before == nil && root === tree.root
    }

    /// The lent tree as it was when lent.
    @usableFromInline
    package var versionBefore: TreeArray<Element> {
        if let before { return before }
        if let shared { return shared }
        var tree = TreeArray(root: unsafeDowncast(root!, to: TreeArrayNode<Element>.self))
        // Not journaled: the entry no longer names this storage while it is rewound.
        let held = root
        root = nil
        if let write { tree.rewind(write) }
        root = held
        return tree
    }

    /// Takes `write` (evaluated only if it is the first), about to be made to the lent tree:
    /// the first is kept, and the entry lets go of the root so the write is made in place;
    /// any later one makes the entry keep the version before the run whole. Returns whether
    /// the caller must hand the root back (``retake(_:)``) once it has written.
    @usableFromInline
    package func note(_ write: () -> TreeArrayJournaledWrite<Element>) -> Bool {
        guard self.write == nil else {
            before = versionBefore
            self.write = nil
            shared = nil
            root = nil
            return false
        }
        self.write = write()
        root = nil
        return true
    }

    /// Keeps `tree`, about to take the first write with the lent root, when the write will
    /// copy the root: something else holds it too (see ``shared``).
    @inlinable
    package func keepIfShared(_ tree: inout TreeArray<Element>) {
        if !isKnownUniquelyReferenced(&tree.root) { shared = tree }
    }

    /// Holds `tree`'s root again after the journaled write.
    @usableFromInline
    package func retake(_ tree: TreeArray<Element>) {
        root = tree.root
    }
}

/// A write the journal records: enough to rebuild the tree before it, and to describe it as
/// a comparison would.
@usableFromInline
package enum TreeArrayJournaledWrite<Element> {
    /// The element at `position` was written; `old` is what it held.
    case replaced(at: Int, old: Element)
    /// An element was inserted at `position`.
    case inserted(at: Int)
    /// The element `old` was removed from `position`.
    case removed(at: Int, old: Element)
}

extension TreeArray {

    /// Tells the journal open on this thread, if it lent this tree, of the write about to be
    /// made (`write`, evaluated only then). Returns the entry to ``TreeArrayJournalRecord/retake(_:)``
    /// the root after writing, when the journal took the write.
    ///
    /// Called first by each of the three writes that reach the tree's nodes (an element's
    /// write, `insert`, `remove`), before the root's uniqueness is asked: the journal lets go
    /// of the root first. Without an open journal it costs one thread-local load.
    @inlinable @inline(__always)
    func journal(_ write: @autoclosure () -> TreeArrayJournaledWrite<Element>) -> TreeArrayJournalRecord<Element>? {
        guard _slowPath(treeArrayOpenJournal() != nil) else { return nil }
        return noteInOpenJournal(write)
    }

    @inlinable @inline(never)
    func noteInOpenJournal(_ write: () -> TreeArrayJournaledWrite<Element>) -> TreeArrayJournalRecord<Element>? {
        guard let entry = TreeArrayJournal.current?.entry(for: root) else { return nil }
        // Lent storage has this element type: the entry was made from a tree of it.
        let record = unsafeDowncast(entry, to: TreeArrayJournalRecord<Element>.self)
        return record.note(write) ? record : nil
    }

    /// Undoes `write`, which this tree took last.
    @usableFromInline
    mutating func rewind(_ write: TreeArrayJournaledWrite<Element>) {
        switch write {
        case let .replaced(position, old): self[position] = old
        case let .inserted(position): remove(at: position)
        case let .removed(position, old): insert(old, at: position)
        }
    }
}
