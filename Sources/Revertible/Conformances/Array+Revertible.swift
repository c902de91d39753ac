extension Array: Revertible where Element: Hashable {

    /// The reversion to `previous`, or `nil` when the arrays are equal.
    ///
    /// Elements that are `Identifiable` and ``Versionable`` are matched by identity: inserts,
    /// removes, moves and the edits inside each element. Other elements are compared as a
    /// collection difference. Either way only the affected elements are stored.
    public func reversion(to previous: [Element]) -> Reversion<[Element]>? {
        if let identified = Element.self as? any (Identifiable & Versionable).Type {
            return identifiedReversion(identified, from: previous)
        }
        return ArrayDifferenceChange.make(at: \[Element].self, from: previous, to: self).map { Reversion(node: $0) }
    }

    /// Opens the element type found at run time; `Element` and `Identified` are the same type.
    private func identifiedReversion<Identified: Identifiable & Versionable>(
        _: Identified.Type,
        from previous: [Element]
    ) -> Reversion<[Element]>? {
        let node = IdentifiedArrayChange.make(
            at: \[Identified].self,
            from: unsafeBitCast(previous, to: [Identified].self),
            to: unsafeBitCast(self, to: [Identified].self)
        )
        return node.map { unsafeBitCast(Reversion<[Identified]>(node: $0), to: Reversion<[Element]>.self) }
    }
}
