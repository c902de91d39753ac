extension String: Revertible {

    /// The reversion to `previous`, storing only the changed run of UTF-8 bytes (cut at
    /// Unicode scalar boundaries), or `nil` when the strings are equal.
    public func reversion(to previous: String) -> Reversion<String>? {
        RangeChange.make(at: \String.self, from: previous, to: self).map { Reversion(node: $0) }
    }
}
