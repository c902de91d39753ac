extension Dictionary: Revertible where Value: Hashable {

    /// The reversion to `previous`, storing only the keys inserted, removed and updated (an
    /// updated `Versionable` value keeps only its inner edits), or `nil` when the dictionaries
    /// are equal.
    public func reversion(to previous: [Key: Value]) -> Reversion<[Key: Value]>? {
        DictionaryChange.make(at: \[Key: Value].self, from: previous, to: self).map { Reversion(node: $0) }
    }
}
