// Audited: a tree's nodes are classes, but a node is written only through a `TreeArray` that
// holds the sole reference to it (every mutation checks `isKnownUniquelyReferenced` and copies
// a shared node first), so a node reachable from two values, and so from two threads, is never
// written. What remains shared is immutable, and the elements themselves must be `Sendable`.
extension TreeArray: @unchecked Sendable where Element: Sendable {}
