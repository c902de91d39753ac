extension TreeArray: Hashable where Element: Hashable {

    /// Hashes the number of elements and every element in order, as `Array` does, so equal
    /// trees hash equally whatever their chunk boundaries.
    ///
    /// - Complexity: O(*n*).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        forEachChunk { chunk in
            for element in chunk {
                hasher.combine(element)
            }
        }
    }
}
