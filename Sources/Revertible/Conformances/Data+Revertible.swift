import Foundation

extension Data: Revertible {

    /// The reversion to `previous`, storing only the changed run of bytes, or `nil` when the
    /// two are equal.
    public func reversion(to previous: Data) -> Reversion<Data>? {
        RangeChange.make(at: \Data.self, from: previous, to: self).map { Reversion(node: $0) }
    }
}
