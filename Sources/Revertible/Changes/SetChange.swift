/// Members added to and removed from a set; the members that stayed are not stored.
final class SetChange<Root, Element: Hashable>: ReversionNode {

    let keyPath: WritableKeyPath<Root, Set<Element>>
    /// Members of the newer version that the older one lacks.
    let added: [Element]
    /// Members of the older version that the newer one lacks.
    let removed: [Element]
    let oldCount: Int
    let newCount: Int

    init(at keyPath: WritableKeyPath<Root, Set<Element>>, added: [Element], removed: [Element], oldCount: Int, newCount: Int) {
        self.keyPath = keyPath
        self.added = added
        self.removed = removed
        self.oldCount = oldCount
        self.newCount = newCount
    }

    static func make(at keyPath: WritableKeyPath<Root, Set<Element>>, from old: Set<Element>, to new: Set<Element>) -> SetChange? {
        guard old != new else { return nil }
        // In an order fixed by the members, not the sets' iteration order.
        var added = new.filter { !old.contains($0) } as [Element]
        var removed = old.filter { !new.contains($0) } as [Element]
        sortCanonically(&added) { $0 }
        sortCanonically(&removed) { $0 }
        return SetChange(at: keyPath, added: added, removed: removed, oldCount: old.count, newCount: new.count)
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        let set = value[keyPath: keyPath]
        let (present, absent, count) = direction == .backward ? (added, removed, newCount) : (removed, added, oldCount)
        return set.count == count && present.allSatisfy(set.contains) && !absent.contains(where: set.contains)
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        let (leaving, returning) = direction == .backward ? (added, removed) : (removed, added)
        value[keyPath: keyPath].subtract(leaving)
        value[keyPath: keyPath].formUnion(returning)
        return true
    }

    /// Each member is a location: one the change added is removed if still there, one it
    /// removed comes back if still absent; a member another writer already took out or put
    /// back is a conflict with nothing left to do. Other writers' members are no conflict.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        let (leaving, returning) = direction == .backward ? (added, removed) : (removed, added)
        let place = LocationName(keyPath)
        for member in leaving {
            if value[keyPath: keyPath].remove(member) == nil {
                conflicts.append(NodeConflict(
                    location: place + .subscript(LocationName.argument(member)), expected: "member", found: "absent"
                ))
            }
        }
        for member in returning {
            if !value[keyPath: keyPath].insert(member).inserted {
                conflicts.append(NodeConflict(
                    location: place + .subscript(LocationName.argument(member)), expected: "absent", found: "member"
                ))
            }
        }
    }

    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard isAtSelf(keyPath), let path = parentPath as? WritableKeyPath<Parent, Set<Element>> else { return nil }
        return SetChange<Parent, Element>(at: path, added: added, removed: removed, oldCount: oldCount, newCount: newCount)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        paths.append(keyPath)
    }
}
