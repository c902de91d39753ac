extension Reversion {

    /// Reverts `value` where it still holds what this reversion was made from, and handles
    /// every other location by `policy`: the selective undo that lets a history share its
    /// value with other writers.
    ///
    /// Where the whole reversion applies (no other writer touched its locations), this is
    /// exactly ``revert(_:)``. Otherwise each location is its own unit: a property, an element
    /// found by its identity, a key of a dictionary.
    ///
    /// - Returns: The conflicts, in the order found; empty when the whole reversion applied.
    ///   With ``ConflictPolicy/refuse``, `value` is unchanged whenever the result is not empty.
    func revertSelectively(_ value: inout Root, onConflict policy: ConflictPolicy) -> [ReversionConflict] {
        if node.canApply(to: value, direction), node.bringsBackOnlyAbsentIDs(in: value, direction), node.apply(to: &value, direction) {
            return []
        }
        var conflicts: [NodeConflict] = []
        if policy == .refuse {
            // Every location may still apply one by one (another writer's change elsewhere in
            // a collection is no conflict): then the copy is the result.
            var copy = value
            node.applySelectively(to: &copy, direction, onConflict: .skip, conflicts: &conflicts)
            if conflicts.isEmpty {
                value = copy
            }
        } else {
            node.applySelectively(to: &value, direction, onConflict: policy, conflicts: &conflicts)
        }
        return conflicts.map { conflict in
            ReversionConflict(location: conflict.location.text(in: Root.self), expected: conflict.expected, found: conflict.found)
        }
    }
}
