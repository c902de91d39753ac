extension CompositeChange: EncodableReversionNode {

    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try container.encode(NodeKind.all, forKey: .kind)
        try container.encode(nodes.map(EncodedNode.init), forKey: .child)
        if nodes.isEmpty {
            try container.encode(true, forKey: .nothing)
        }
    }
}

extension DecodedNode {

    /// Several changes applied as one. Their locations must be disjoint (none inside or equal
    /// to another): then checking them all before writing any is enough, because writing one
    /// cannot change what another checked. A comparison never makes overlapping children, so
    /// a file that has them was not written by one.
    static func compositeChange(from container: ChangeFields<NodeCodingKey>) throws -> DecodedNode {
        let children = try container.nodes(Root.self, forKey: .child)
        // Empty only when marked so: a step whose every location another writer had changed
        // when it was undone or redone (see `History.apply(_:_:to:)`) moves, changing nothing.
        let isMarkedEmpty = try container.decodeBoolIfPresent(forKey: .nothing) == true
        guard !children.isEmpty || isMarkedEmpty else {
            throw container.corrupted("a composite change holds no changes", at: .child)
        }
        // Sorted, a location that contains another sits right before it or before a location
        // inside it, so comparing neighbours finds every overlap.
        let locations = children.map { $0.location }.sorted { $0.lexicographicallyPrecedes($1) }
        for (first, second) in zip(locations, locations.dropFirst()) where second.starts(with: first) {
            let shown = { (location: [String]) in location.isEmpty ? "the whole value" : "." + location.joined(separator: ".") }
            throw container.corrupted("changes at \(shown(first)) and \(shown(second)) of \(Root.self) overlap", at: .child)
        }
        return DecodedNode(CompositeChange(nodes: children.map { $0.node }))
    }
}
