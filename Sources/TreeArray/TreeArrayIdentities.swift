import Foundation

/// The identity index of one tree version: a ``TreeArrayIDTrie`` from each element's id to its
/// order key, valid for the root content named by `stamp`.
///
/// Generic over any element (the mutations that keep it up to date run for every tree), so
/// the trie is held as `AnyObject` and reached through `operations`, closures made in code
/// compiled for the element type when the index was built.
@usableFromInline
struct TreeArrayIdentities<Element> {
    /// The stamp of the root whose elements the trie describes; a root with another stamp
    /// was changed without it, and its index is rebuilt when next asked for.
    @usableFromInline var stamp: UInt64
    /// The trie's root node, a `TreeArrayIDTrieNode<Element.ID>`.
    @usableFromInline var trie: AnyObject
    @usableFromInline let operations: TreeArrayIdentityOperations<Element>

    @inlinable
    init(stamp: UInt64, trie: AnyObject, operations: TreeArrayIdentityOperations<Element>) {
        self.stamp = stamp
        self.trie = trie
        self.operations = operations
    }

    /// Records that `element` holds `key`.
    @inlinable
    mutating func insert(_ element: Element, key: UInt64) {
        operations.insert(&trie, element, key)
    }

    /// Forgets that `element` holds `key`.
    @inlinable
    mutating func remove(_ element: Element, key: UInt64) {
        operations.remove(&trie, element, key)
    }

    /// Moves `element` from key `old` to key `new`.
    @inlinable
    mutating func rekey(_ element: Element, from old: UInt64, to new: UInt64) {
        operations.remove(&trie, element, old)
        operations.insert(&trie, element, new)
    }
}

/// The trie's updates, compiled for one element type.
@usableFromInline
struct TreeArrayIdentityOperations<Element> {
    @usableFromInline let insert: (inout AnyObject, Element, UInt64) -> Void
    @usableFromInline let remove: (inout AnyObject, Element, UInt64) -> Void

    @inlinable
    init(insert: @escaping (inout AnyObject, Element, UInt64) -> Void, remove: @escaping (inout AnyObject, Element, UInt64) -> Void) {
        self.insert = insert
        self.remove = remove
    }
}

extension TreeArrayIdentityOperations where Element: Identifiable {

    /// The operations on a `TreeArrayIDTrie<Element.ID>`. The trie is moved out of `object`
    /// while it is written, so that a trie only the index holds is written in place.
    @inlinable
    static var trie: TreeArrayIdentityOperations {
        TreeArrayIdentityOperations(
            insert: { object, element, key in
                var trie = TreeArrayIDTrie<Element.ID>(root: unsafeDowncast(object, to: TreeArrayIDTrieNode<Element.ID>.self))
                object = treeArrayIDPlaceholder
                trie.insert(element.id, key: key)
                object = trie.root
            },
            remove: { object, element, key in
                var trie = TreeArrayIDTrie<Element.ID>(root: unsafeDowncast(object, to: TreeArrayIDTrieNode<Element.ID>.self))
                object = treeArrayIDPlaceholder
                trie.remove(element.id, key: key)
                object = trie.root
            }
        )
    }
}

extension TreeArrayIDTrie {
    @inlinable
    init(root: Node) {
        self.root = root
    }
}

/// Holds a trie's place while the trie is written.
@usableFromInline
final class TreeArrayIDPlaceholder: Sendable {
    init() {}
}

@usableFromInline
let treeArrayIDPlaceholder = TreeArrayIDPlaceholder()

/// Where a root node keeps its identity index: made by the first lookup by id on a version
/// (a read, which may run on several threads at once), hence behind a lock.
@usableFromInline
final class TreeArrayIdentityCell<Element>: @unchecked Sendable {
    // Audited: `identities` is only touched while holding `lock`.
    private let lock = NSLock()
    private var identities: TreeArrayIdentities<Element>?

    @usableFromInline
    init() {}

    /// The index if it describes the content stamped `stamp`; taken out of the cell when
    /// `take` (its node is written next, so its old index is of no further use).
    @usableFromInline
    func identities(validFor stamp: UInt64, take: Bool) -> TreeArrayIdentities<Element>? {
        lock.lock()
        defer { lock.unlock() }
        guard let identities, identities.stamp == stamp else { return nil }
        if take { self.identities = nil }
        return identities
    }

    @usableFromInline
    func store(_ identities: TreeArrayIdentities<Element>) {
        lock.lock()
        defer { lock.unlock() }
        self.identities = identities
    }
}
