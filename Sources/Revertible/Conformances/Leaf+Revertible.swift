import Foundation

extension Revertible {

    /// The reversion to `previous` as the whole old and new value, or `nil` when the two are
    /// equal: the change of a one-location value, such as a number, a flag or a plain enum.
    ///
    /// This is what a type gets by declaring the conformance alone, so a plain enum of your
    /// own becomes revertible in one line:
    ///
    /// ```swift
    /// enum Tool: Revertible {
    ///     case pen, eraser
    /// }
    /// ```
    ///
    /// For a type declared elsewhere, `extension Tool: Revertible {}` does the same.
    ///
    /// Types with parts worth storing apart adopt ``Versionable`` instead, which replaces this
    /// with the changes of the key paths they register.
    public func reversion(to previous: Self) -> Reversion<Self>? {
        guard !matches(self, previous) else { return nil }
        return Reversion(node: ValueChange(at: selfKeyPath(Self.self), from: previous, to: self))
    }
}

// Every basic value is one location: a change replaces it whole, and costs its size.
extension Bool: Revertible {}
extension Int: Revertible {}
extension Int8: Revertible {}
extension Int16: Revertible {}
extension Int32: Revertible {}
extension Int64: Revertible {}
extension UInt: Revertible {}
extension UInt8: Revertible {}
extension UInt16: Revertible {}
extension UInt32: Revertible {}
extension UInt64: Revertible {}
extension Double: Revertible {}
extension Float: Revertible {}
extension Character: Revertible {}
extension Date: Revertible {}
extension UUID: Revertible {}
extension URL: Revertible {}
extension Decimal: Revertible {}

extension Optional: Revertible where Wrapped: Revertible {

    /// The reversion to `previous`: the inner changes while both are non-`nil` and the
    /// wrapped type stores parts apart (a `String`'s changed range, say), otherwise the whole
    /// old and new value; `nil` when the two are equal.
    public func reversion(to previous: Wrapped?) -> Reversion<Wrapped?>? {
        guard self != previous else { return nil }
        if let previous, let current = self, let inner = current.reversion(to: previous),
           !(inner.node is ValueChange<Wrapped, Wrapped>) {
            return Reversion(node: OptionalChange(wrapping: inner.node))
        }
        return Reversion(node: ValueChange(at: selfKeyPath(Self.self), from: previous, to: self))
    }
}
