extension TreeArray where Element: Identifiable {

    /// The position of the first element whose id is `id`, or `nil` if there is none.
    ///
    /// - Complexity: O(*n*): the tree keeps no index by id.
    public func index(id: Element.ID) -> Int? {
        var position = 0
        var found: Int?
        forEachChunk { chunk in
            guard found == nil else { return }
            if let offset = chunk.firstIndex(where: { $0.id == id }) {
                found = position + offset
            }
            position += chunk.count
        }
        return found
    }

    /// The first element whose id is `id`, or `nil` if there is none.
    ///
    /// - Complexity: O(*n*): the tree keeps no index by id.
    public subscript(id id: Element.ID) -> Element? {
        index(id: id).map { self[$0] }
    }
}
