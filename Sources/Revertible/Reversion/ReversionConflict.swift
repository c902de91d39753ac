/// A location that a step's undo or redo found changed by someone else since the step was made.
///
/// Values are shown as `String(describing:)` prints them; a change of a whole collection
/// (a positional array's insert, say) may describe only its part that differs.
public struct ReversionConflict: Hashable, Sendable {
    /// The location, as written in Swift: `\Ledger.accounts[id: 7].balance`.
    public var location: String
    /// What the step expected there (what it left), when it can be shown.
    public var expected: String?
    /// What was found there instead, when it can be shown; `nil` also when the location is gone.
    public var found: String?

    /// A conflict at `location`.
    public init(location: String, expected: String? = nil, found: String? = nil) {
        self.location = location
        self.expected = expected
        self.found = found
    }
}

extension ReversionConflict: CustomStringConvertible {

    /// `\Ledger.accounts[id: 7].balance (expected 10, found 12)`.
    public var description: String {
        switch (expected, found) {
        case let (expected?, found?): "\(location) (expected \(expected), found \(found))"
        case let (expected?, nil): "\(location) (expected \(expected), found nothing)"
        case let (nil, found?): "\(location) (found \(found))"
        case (nil, nil): location
        }
    }
}

/// A conflict found inside a change, with its location relative to the change's root; the
/// reversion names it from its own root.
@usableFromInline
struct NodeConflict {
    var location: LocationName
    var expected: String?
    var found: String?

    /// The conflict `location` + this one's, for a change nested at `location`.
    func inside(_ location: LocationName) -> NodeConflict {
        NodeConflict(location: location + self.location, expected: expected, found: found)
    }
}
