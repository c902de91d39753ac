extension Set: Revertible {

    /// The reversion to `previous`, storing only the members added and removed, or `nil` when
    /// the sets are equal.
    public func reversion(to previous: Set<Element>) -> Reversion<Set<Element>>? {
        SetChange.make(at: \Set<Element>.self, from: previous, to: self).map { Reversion(node: $0) }
    }
}
