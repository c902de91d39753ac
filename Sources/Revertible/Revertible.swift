/// A value that can describe how to go back to an earlier version of itself.
///
/// Only `Equatable` is required: nothing hashes whole values (reducer states usually are
/// `Equatable` alone).
///
/// The library conforms every basic value (`Bool`, the integers of every width, `Double`,
/// `Float`, `Character`, `Date`, `UUID`, `URL`, `Decimal`: one location each, stored whole),
/// `String` and `Data` (the changed run), `Set`, `Array` (of `Hashable` elements),
/// `Dictionary` (with `Hashable` values), and the optionals of all of these. A plain enum of
/// yours conforms in one line, `extension Tool: Revertible {}`, and is stored whole; types
/// with parts adopt ``Versionable`` instead, which provides `reversion(to:)` from the key
/// paths you register.
public protocol Revertible: Equatable {

    /// Returns the changes that turn this value back into `previous`, or `nil` when the two
    /// are equal.
    ///
    /// Applying the result to this value (``Reversion/revert(_:)``) gives a value equal to
    /// `previous`. Applying it to any other value whose written locations differ throws
    /// ``ReversionError/attemptingToRevertWrongVersion`` and changes nothing.
    func reversion(to previous: Self) -> Reversion<Self>?
}
