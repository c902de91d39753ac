/// The reverter a history walks its copy of the present with before a reducer runs (see
/// `History.lendTrees(to:policy:)`): it finds the `TreeArray`s and `TextBuffer`s the value
/// registers at stored key paths and lends each to a journal, instead of comparing anything.
/// (A text is lent as a tree is; "tree" below stands for both.)
///
/// `Reverter.appendReversion(at:)` for a tree hands its key path here (the overload is
/// inlined where the value's type registers the tree), so what the journal does with the
/// tree afterwards runs compiled for the element type.
@usableFromInline
struct TreeArrayLending<Root>: Reverter {

    /// The history's copy of the present, whose trees the present holds (checked by
    /// `History.lendTrees(to:policy:)` once this walk found them).
    @usableFromInline let reference: Root
    @usableFromInline let journal: TreeArrayJournal
    @usableFromInline var trees: [LentTree<Root>] = []
    /// Whether a tree cannot be lent: at a computed key path, or holding storage another
    /// place holds too.
    @usableFromInline var isRefused = false

    @inlinable
    init(reference: Root, journal: TreeArrayJournal) {
        self.reference = reference
        self.journal = journal
    }

    /// Both versions are the history's copy: every other registration compares it with
    /// itself and finds nothing (and `hasChanged` answers `false`). A registration that
    /// depends on what the run changes is caught by the walk after it, on the present
    /// (`TreeArrayJournaledComparison`).
    @inlinable
    func versions<Value>(at keyPath: KeyPath<Root, Value>) -> (previous: Value, current: Value) {
        let value = reference[keyPath: keyPath]
        return (value, value)
    }

    @inlinable
    mutating func append<Value>(_ reversion: Reversion<Value>, at keyPath: WritableKeyPath<Root, Value>) {}

    /// Lends the tree at `keyPath`.
    @inlinable
    mutating func lend<Element: Identifiable & Versionable>(at keyPath: WritableKeyPath<Root, TreeArray<Element>>) {
        guard let offset = MemoryLayout<Root>.offset(of: keyPath), let record = journal.lend(reference[keyPath: keyPath]) else {
            isRefused = true
            return
        }
        // The tree is read and written at its offset (a stored property, checked above), not
        // through the key path, whose every application costs a call into the runtime.
        trees.append(LentTree(offset: offset) { operation, reference, present in
            switch operation {
            case .takeBack:
                // An empty tree: the history holds nothing of the lent storage while the
                // reducer writes it.
                withStoredProperty(at: offset, of: &reference) { $0 = TreeArray<Element>() }
            case .restore:
                withStoredProperty(at: offset, of: &reference) { $0 = record.versionBefore }
            case .adopt:
                let tree = storedProperty(at: offset, of: present, as: TreeArray<Element>.self)
                withStoredProperty(at: offset, of: &reference) { $0 = tree }
            case .describe:
                return Self.describe(storedProperty(at: offset, of: present), record: record, at: keyPath)
            }
            return .done
        })
    }

    /// Lends the text at `keyPath`, through the same journal as the trees: the text's one
    /// edit in the run is journaled (TextBuffer/TextBuffer+Journal.swift). Inlinable, as the
    /// tree's is, so the closure that moves the text in and out of `Root` is compiled for it.
    @inlinable
    mutating func lend(at keyPath: WritableKeyPath<Root, TextBuffer>) {
        guard let offset = MemoryLayout<Root>.offset(of: keyPath),
              let record = journal.lend(storedProperty(at: offset, of: reference, as: TextBuffer.self))
        else {
            isRefused = true
            return
        }
        trees.append(LentTree(offset: offset) { operation, reference, present in
            switch operation {
            case .takeBack:
                withStoredProperty(at: offset, of: &reference) { $0 = TextBuffer() }
            case .restore:
                withStoredProperty(at: offset, of: &reference) { $0 = record.versionBefore }
            case .adopt:
                let text = storedProperty(at: offset, of: present, as: TextBuffer.self)
                withStoredProperty(at: offset, of: &reference) { $0 = text }
            case .describe:
                let (isVouched, reversion) = storedProperty(at: offset, of: present, as: TextBuffer.self).journaledReversion(record)
                guard isVouched else { return .distrusted }
                guard let reversion else { return .unchanged }
                return .changed(reversion.node(at: keyPath))
            }
            return .done
        })
    }

    /// The change the journal saw `tree`, the present's, take since it was lent, as the
    /// comparison of the two versions would describe it; `.distrusted` where the journal
    /// cannot tell it (then the history compares the versions).
    @inlinable
    static func describe<Element: Identifiable & Versionable>(
        _ tree: TreeArray<Element>, record: TreeArrayJournalRecord<Element>, at keyPath: WritableKeyPath<Root, TreeArray<Element>>
    ) -> LentTreeOutcome<Root> {
        guard record.vouches(for: tree) else { return .distrusted }
        guard let write = record.write else { return .unchanged }
        switch write {
        case let .replaced(position, old):
            let new = tree[position]
            guard new.id == old.id else { return .distrusted }
            // The element's ignored places need nothing: the history's copy takes the whole
            // tree from the present, as the comparison's path copies them from it.
            guard let node = new.difference(fromSameIdentity: old).node else { return .distrusted }
            // The history's copy takes the present's element, which must then hold exactly
            // what the step makes of the old one (a string re-spelled equally elsewhere in
            // the element would be taken silently): the test the comparison's path uses.
            var advanced = old
            guard node.apply(to: &advanced, .forward),
                  withUnsafePointer(to: advanced, { advanced in
                      withUnsafePointer(to: new) { TreeArrayNode<Element>.sameValue(advanced, $0, writtenBy: node) }
                  })
            else { return .distrusted }
            let edit = IdentifiedArrayEdit(oldIndex: position, newIndex: position, id: new.id, node: node)
            return .changed(treeArrayReversion(at: keyPath, edits: [edit], structure: nil, oldCount: tree.count, newCount: tree.count).node)
        case let .inserted(position):
            let structure = IdentifiedArrayStructure<Element>(old: [], new: [(position, .stored(tree[position]))])
            return .changed(treeArrayReversion(at: keyPath, edits: [], structure: structure, oldCount: tree.count - 1, newCount: tree.count).node)
        case let .removed(position, old):
            let structure = IdentifiedArrayStructure<Element>(old: [(position, .stored(old))], new: [])
            return .changed(treeArrayReversion(at: keyPath, edits: [], structure: structure, oldCount: tree.count + 1, newCount: tree.count).node)
        }
    }
}

/// A tree lent to the present for a reducer's run: what the history does with it, compiled
/// for its element type where the value's type registered it (the journal's entry for the
/// tree is captured inside).
@usableFromInline
struct LentTree<Root> {
    /// Where the tree is stored in `Root`.
    @usableFromInline let offset: Int
    @usableFromInline let perform: (LentTreeOperation, inout Root, Root) -> LentTreeOutcome<Root>

    @inlinable
    init(offset: Int, perform: @escaping (LentTreeOperation, inout Root, Root) -> LentTreeOutcome<Root>) {
        self.offset = offset
        self.perform = perform
    }
}

/// What the history asks of a lent tree, on its copy of the present (`reference`), given the
/// present.
@usableFromInline
enum LentTreeOperation {
    /// Before the run: the copy lets go of the tree.
    case takeBack
    /// After the run, when the journal cannot vouch: the copy gets the tree's version from
    /// before the run back.
    case restore
    /// After the run, when it can: the copy takes the present's tree.
    case adopt
    /// The change the tree took, as a comparison would describe it.
    case describe
}

/// A lent tree's answer.
@usableFromInline
enum LentTreeOutcome<Root> {
    case done
    case unchanged
    case changed(any ReversionNode<Root>)
    case distrusted
}
