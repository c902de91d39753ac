/// A persistent hash trie from element ids to the order keys of the elements holding them:
/// the identity index of a ``TreeArray``.
///
/// Persistent because a tree's versions share it as they share their nodes: copying the trie
/// is O(1), and a change copies only the path of trie nodes it writes (those another version
/// still references), so a history of versions never copies an O(*n*) dictionary.
///
/// Each level takes 5 bits of the id's hash; a node keeps the entries that end at it and the
/// children below it in two bitmap-indexed arrays. Ids whose 64-bit hashes are equal end in a
/// node below every bit, which keeps them in a plain list.
@usableFromInline
struct TreeArrayIDTrie<ID: Hashable> {

    @usableFromInline typealias Node = TreeArrayIDTrieNode<ID>

    @usableFromInline var root: Node

    @inlinable
    init() {
        root = Node()
    }

    /// The smallest key held for `id`: the key of the first element with that id.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    func firstKey(of id: ID) -> UInt64? {
        let hash = id.hashValue
        var node = root
        var shift = 0
        while shift < 64 {
            let bit = Node.bit(hash, shift)
            if node.entryMap & bit != 0 {
                let entry = node.entries[Node.slot(node.entryMap, bit)]
                return entry.id == id ? entry.keys.first : nil
            }
            guard node.childMap & bit != 0 else { return nil }
            node = node.children[Node.slot(node.childMap, bit)]
            shift += 5
        }
        return node.entries.first { $0.id == id }?.keys.first
    }

    /// Records that an element with `id` holds `key`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    mutating func insert(_ id: ID, key: UInt64) {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        root.insert(id, hash: id.hashValue, key: key, shift: 0)
    }

    /// Forgets that an element with `id` holds `key`.
    ///
    /// - Complexity: O(log *n*).
    @inlinable
    mutating func remove(_ id: ID, key: UInt64) {
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        root.remove(id, hash: id.hashValue, key: key, shift: 0)
    }
}

/// The keys of the elements that hold one id, smallest first: one, unless ids repeat.
@usableFromInline
enum TreeArrayIDKeys: Sendable {
    case one(UInt64)
    case several([UInt64])

    @inlinable
    var first: UInt64? {
        switch self {
        case let .one(key): key
        case let .several(keys): keys.first
        }
    }

    @inlinable
    mutating func insert(_ key: UInt64) {
        switch self {
        case let .one(existing):
            self = .several(existing < key ? [existing, key] : [key, existing])
        case var .several(keys):
            let position = keys.firstIndex { $0 > key } ?? keys.endIndex
            keys.insert(key, at: position)
            self = .several(keys)
        }
    }

    /// Removes `key`; `false` when no key is left.
    @inlinable
    mutating func remove(_ key: UInt64) -> Bool {
        switch self {
        case let .one(existing):
            return existing != key
        case var .several(keys):
            keys.removeAll { $0 == key }
            if keys.isEmpty { return false }
            self = keys.count == 1 ? .one(keys[0]) : .several(keys)
            return true
        }
    }
}

/// One entry of a ``TreeArrayIDTrie``: an id, its hash, and its keys.
@usableFromInline
struct TreeArrayIDTrieEntry<ID: Hashable> {
    @usableFromInline var hash: Int
    @usableFromInline var id: ID
    @usableFromInline var keys: TreeArrayIDKeys

    @inlinable
    init(hash: Int, id: ID, keys: TreeArrayIDKeys) {
        self.hash = hash
        self.id = id
        self.keys = keys
    }
}

/// A node of a ``TreeArrayIDTrie``; written only while uniquely referenced.
@usableFromInline
final class TreeArrayIDTrieNode<ID: Hashable> {

    @usableFromInline typealias Entry = TreeArrayIDTrieEntry<ID>

    @usableFromInline var entryMap: UInt32 = 0
    @usableFromInline var childMap: UInt32 = 0
    @usableFromInline var entries: ContiguousArray<Entry> = []
    @usableFromInline var children: ContiguousArray<TreeArrayIDTrieNode> = []

    @inlinable
    init() {}

    @inlinable
    func copy() -> TreeArrayIDTrieNode {
        let node = TreeArrayIDTrieNode()
        node.entryMap = entryMap
        node.childMap = childMap
        node.entries = entries
        node.children = children
        return node
    }

    @inlinable @inline(__always)
    static func bit(_ hash: Int, _ shift: Int) -> UInt32 {
        1 << UInt32(truncatingIfNeeded: (UInt(bitPattern: hash) >> UInt(shift)) & 31)
    }

    @inlinable @inline(__always)
    static func slot(_ map: UInt32, _ bit: UInt32) -> Int {
        (map & (bit &- 1)).nonzeroBitCount
    }

    @inlinable
    var isEmpty: Bool {
        entries.isEmpty && children.isEmpty
    }

    @inlinable
    func insert(_ id: ID, hash: Int, key: UInt64, shift: Int) {
        guard shift < 64 else {
            // Below every bit of the hash: a plain list of the ids that share it.
            if let position = entries.firstIndex(where: { $0.id == id }) {
                entries[position].keys.insert(key)
            } else {
                entries.append(Entry(hash: hash, id: id, keys: .one(key)))
            }
            return
        }
        let bit = Self.bit(hash, shift)
        if entryMap & bit != 0 {
            let position = Self.slot(entryMap, bit)
            if entries[position].id == id {
                entries[position].keys.insert(key)
                return
            }
            // Two ids in one slot: both move one level down.
            let moved = entries.remove(at: position)
            entryMap &= ~bit
            let child = TreeArrayIDTrieNode()
            child.insert(moved, shift: shift + 5)
            child.insert(id, hash: hash, key: key, shift: shift + 5)
            childMap |= bit
            children.insert(child, at: Self.slot(childMap, bit))
        } else if childMap & bit != 0 {
            let position = Self.slot(childMap, bit)
            if !isKnownUniquelyReferenced(&children[position]) {
                children[position] = children[position].copy()
            }
            children[position].insert(id, hash: hash, key: key, shift: shift + 5)
        } else {
            entryMap |= bit
            entries.insert(Entry(hash: hash, id: id, keys: .one(key)), at: Self.slot(entryMap, bit))
        }
    }

    /// Places a whole entry moved down from the level above.
    @inlinable
    func insert(_ entry: Entry, shift: Int) {
        guard shift < 64 else {
            entries.append(entry)
            return
        }
        let bit = Self.bit(entry.hash, shift)
        if entryMap & bit != 0 {
            let position = Self.slot(entryMap, bit)
            let other = entries.remove(at: position)
            entryMap &= ~bit
            let child = TreeArrayIDTrieNode()
            child.insert(other, shift: shift + 5)
            child.insert(entry, shift: shift + 5)
            childMap |= bit
            children.insert(child, at: Self.slot(childMap, bit))
        } else {
            // A fresh node holds no children yet where an entry moves in.
            entryMap |= bit
            entries.insert(entry, at: Self.slot(entryMap, bit))
        }
    }

    @inlinable
    func remove(_ id: ID, hash: Int, key: UInt64, shift: Int) {
        guard shift < 64 else {
            if let position = entries.firstIndex(where: { $0.id == id }), !entries[position].keys.remove(key) {
                entries.remove(at: position)
            }
            return
        }
        let bit = Self.bit(hash, shift)
        if entryMap & bit != 0 {
            let position = Self.slot(entryMap, bit)
            guard entries[position].id == id else { return }
            if !entries[position].keys.remove(key) {
                entries.remove(at: position)
                entryMap &= ~bit
            }
        } else if childMap & bit != 0 {
            let position = Self.slot(childMap, bit)
            if !isKnownUniquelyReferenced(&children[position]) {
                children[position] = children[position].copy()
            }
            children[position].remove(id, hash: hash, key: key, shift: shift + 5)
            if children[position].isEmpty {
                children.remove(at: position)
                childMap &= ~bit
            }
        }
    }

    /// Every (id, key) pair below this node, for checks.
    func forEachKey(_ body: (ID, UInt64) -> Void) {
        for entry in entries {
            switch entry.keys {
            case let .one(key): body(entry.id, key)
            case let .several(keys): for key in keys { body(entry.id, key) }
            }
        }
        for child in children { child.forEachKey(body) }
    }
}
