/// Describes how `old` became `new` (two values known to differ) as precisely as their type
/// allows: the inner edits of a `Versionable` or library-revertible value, else the whole old
/// and new value; no change when they differ only in properties their type ignores. For a
/// `Versionable` value, also the ignored places the comparison passed.
///
/// Collections call this for the elements and values they hold. The type is checked at run
/// time, once per changed element, because a collection's own conformance cannot be
/// specialized on what its elements happen to conform to.
func changeDifference<Value: Equatable>(from old: Value, to new: Value) -> VersionDifference<Value> {
    if let new = new as? any Versionable, let difference = versionableDifference(new, from: old) as? VersionDifference<Value> {
        return difference
    }
    if let new = new as? any Revertible, let node = revertibleNode(new, from: old) as? any ReversionNode<Value> {
        return VersionDifference(node: node, ignored: [])
    }
    return VersionDifference(node: ValueChange(at: selfKeyPath(Value.self), from: old, to: new), ignored: [])
}

private func versionableDifference<Value: Versionable>(_ new: Value, from old: Any) -> Any? {
    guard let old = old as? Value else { return nil }
    return new.difference(from: old)
}

private func revertibleNode<Value: Revertible>(_ new: Value, from old: Any) -> (any ReversionNode<Value>)? {
    guard let old = old as? Value else { return nil }
    return new.reversion(to: old).map { $0.node(at: selfKeyPath(Value.self)) }
}
