/// A whole value replaced: a leaf, an enum changing case, or a type's fallback overwrite.
final class ValueChange<Root, Value: Equatable>: ReversionNode {

    let keyPath: WritableKeyPath<Root, Value>
    let old: Value
    let new: Value

    init(at keyPath: WritableKeyPath<Root, Value>, from old: Value, to new: Value) {
        self.keyPath = keyPath
        self.old = old
        self.new = new
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        matchesStored(value[keyPath: keyPath], direction == .backward ? new : old)
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        value[keyPath: keyPath] = direction == .backward ? old : new
        return true
    }

    /// One location: the value found there is the conflict's, and overwriting writes anyway.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        let expected = direction == .backward ? new : old
        let found = value[keyPath: keyPath]
        if !matchesStored(found, expected) {
            conflicts.append(NodeConflict(
                location: LocationName(keyPath), expected: String(describing: expected), found: String(describing: found)
            ))
            guard policy == .overwrite else { return }
        }
        value[keyPath: keyPath] = direction == .backward ? old : new
    }

    func rerooted<Parent>(at parentPath: WritableKeyPath<Parent, Root>) -> (any ReversionNode<Parent>)? {
        guard isAtSelf(keyPath), let path = parentPath as? WritableKeyPath<Parent, Value> else { return nil }
        return ValueChange<Parent, Value>(at: path, from: old, to: new)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        paths.append(keyPath)
    }
}

/// Whether `keyPath` is the identity key path `\Root.self`.
func isAtSelf<Root, Value>(_ keyPath: WritableKeyPath<Root, Value>) -> Bool {
    isSelfKeyPath(keyPath)
}
