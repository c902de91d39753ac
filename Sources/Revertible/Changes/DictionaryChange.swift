/// Keys inserted, removed and updated in a dictionary; untouched entries are not stored, and
/// an updated value keeps only its own change (its inner edits, for a `Versionable` value).
final class DictionaryChange<Root, Key: Hashable, Value: Equatable>: ReversionNode {

    typealias Change = DictionaryEntryChange<Value>

    let keyPath: WritableKeyPath<Root, [Key: Value]>
    let changes: [(key: Key, change: Change)]
    let oldCount: Int
    let newCount: Int

    init(at keyPath: WritableKeyPath<Root, [Key: Value]>, changes: [(key: Key, change: Change)], oldCount: Int, newCount: Int) {
        self.keyPath = keyPath
        self.changes = changes
        self.oldCount = oldCount
        self.newCount = newCount
    }

    static func make(at keyPath: WritableKeyPath<Root, [Key: Value]>, from old: [Key: Value], to new: [Key: Value]) -> DictionaryChange? {
        var ignored: [IgnoredProperty<[Key: Value]>] = []
        return make(at: keyPath, from: old, to: new, ignored: &ignored)
    }

    /// The change, and in `ignored` the ignored places passed inside the values updated.
    static func make(
        at keyPath: WritableKeyPath<Root, [Key: Value]>,
        from old: [Key: Value],
        to new: [Key: Value],
        ignored: inout [IgnoredProperty<[Key: Value]>]
    ) -> DictionaryChange? {
        guard old != new else { return nil }
        var changes: [(key: Key, change: Change)] = []
        for (key, newValue) in new {
            if let oldValue = old[key] {
                if oldValue != newValue {
                    let difference = changeDifference(from: oldValue, to: newValue)
                    ignored += difference.ignored.atValue(forKey: key)
                    if let node = difference.node {
                        changes.append((key, .updated(node)))
                    }
                }
            } else {
                changes.append((key, .inserted(newValue)))
            }
        }
        for (key, oldValue) in old where new[key] == nil {
            changes.append((key, .removed(oldValue)))
        }
        guard !changes.isEmpty else { return nil }
        // In an order fixed by the keys, not the dictionaries' iteration order.
        sortCanonically(&changes) { $0.key }
        return DictionaryChange(at: keyPath, changes: changes, oldCount: old.count, newCount: new.count)
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        let dictionary = value[keyPath: keyPath]
        guard dictionary.count == (direction == .backward ? newCount : oldCount) else { return false }
        return changes.allSatisfy { key, change in
            switch (change, direction) {
            case let (.inserted(expected), .backward), let (.removed(expected), .forward):
                dictionary[key].map { matchesStored($0, expected) } ?? false
            case (.inserted, .forward), (.removed, .backward):
                dictionary[key] == nil
            case let (.updated(node), _):
                dictionary[key].map { node.canApply(to: $0, direction) } ?? false
            }
        }
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        for (key, change) in changes {
            switch (change, direction) {
            case (.inserted, .backward), (.removed, .forward):
                value[keyPath: keyPath][key] = nil
            case let (.inserted(returning), .forward), let (.removed(returning), .backward):
                value[keyPath: keyPath][key] = returning
            case let (.updated(node), _):
                _ = node.apply(to: &value[keyPath: keyPath][key]!, direction)
            }
        }
        return true
    }

    /// Each key is a location: an entry the change inserted is removed only if it still holds
    /// what was inserted, a removed one comes back only if the key is still free, an updated
    /// one is reverted inside (selectively). Other writers' keys are no conflict.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        let place = LocationName(keyPath)
        for (key, change) in changes {
            let entry = place + .subscript(LocationName.argument(key))
            let found = value[keyPath: keyPath][key]
            switch (change, direction) {
            case let (.inserted(expected), .backward), let (.removed(expected), .forward):
                guard let found else {
                    conflicts.append(NodeConflict(location: entry, expected: describe(expected), found: nil))
                    continue
                }
                if !matchesStored(found, expected) {
                    conflicts.append(NodeConflict(location: entry, expected: describe(expected), found: describe(found)))
                    guard policy == .overwrite else { continue }
                }
                value[keyPath: keyPath][key] = nil
            case let (.inserted(returning), .forward), let (.removed(returning), .backward):
                if let found {
                    conflicts.append(NodeConflict(location: entry, expected: nil, found: describe(found)))
                    guard policy == .overwrite else { continue }
                }
                value[keyPath: keyPath][key] = returning
            case let (.updated(node), _):
                guard found != nil else {
                    conflicts.append(NodeConflict(location: entry, expected: nil, found: nil))
                    continue
                }
                var inner: [NodeConflict] = []
                node.applySelectively(to: &value[keyPath: keyPath][key]!, direction, onConflict: policy, conflicts: &inner)
                conflicts += inner.map { $0.inside(entry) }
            }
        }
    }

    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard isAtSelf(keyPath), let path = parentPath as? WritableKeyPath<Parent, [Key: Value]> else { return nil }
        return DictionaryChange<Parent, Key, Value>(at: path, changes: changes, oldCount: oldCount, newCount: newCount)
    }

    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        let dictionary = value[keyPath: keyPath]
        let place = LocationName(keyPath)
        guard dictionary.count == (direction == .backward ? newCount : oldCount) else { return place }
        for (key, change) in changes {
            let entry = place + .subscript(LocationName.argument(key))
            switch (change, direction) {
            case let (.inserted(expected), .backward), let (.removed(expected), .forward):
                if !(dictionary[key].map { matchesStored($0, expected) } ?? false) { return entry }
            case (.inserted, .forward), (.removed, .backward):
                if dictionary[key] != nil { return entry }
            case let (.updated(node), _):
                guard let current = dictionary[key] else { return entry }
                if !node.canApply(to: current, direction) {
                    return entry + (node.refusedLocation(in: current, direction) ?? .root)
                }
            }
        }
        return place
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        for (key, change) in changes {
            let entry: WritableKeyPath<Root, Value?> = keyPath.appending(path: \[Key: Value].[key])
            guard case let .updated(node) = change else {
                paths.append(entry)
                continue
            }
            var childPaths: [PartialKeyPath<Value>] = []
            node.appendKeyPaths(to: &childPaths)
            for childPath in childPaths {
                if let path = entry.appending(path: \Value?.self!).appending(path: childPath) as? PartialKeyPath<Root> {
                    paths.append(path)
                }
            }
        }
    }
}

/// How one key's entry differs between two versions of a dictionary.
enum DictionaryEntryChange<Value> {
    /// Present only in the newer version.
    case inserted(Value)
    /// Present only in the older version.
    case removed(Value)
    /// Present in both, changed as described.
    case updated(any ReversionNode<Value>)
}
