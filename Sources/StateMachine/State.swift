/// One discrete state of an `Owner` object: a static container for the data
/// the owner needs while it is in that state.
///
/// Declare each state as its own type, usually a struct nested in the owner:
///
/// ```swift
/// extension MyView {
///     struct Disabled: State {
///         typealias Owner = MyView
///         var opacity: Float
///     }
/// }
/// ```
///
/// Two values of a state are equal when they are the *same discrete state*
/// (the same ``identifier``); the data they carry doesn't take part, because
/// "is the view disabled?" shouldn't depend on the opacity. Write your own
/// `==` if you want the data compared too. When a state also conforms to
/// `Hashable`, its default hash follows the same rule, so the two stay
/// consistent.
///
/// `State` doesn't require `Sendable`, so a state may hold references its
/// owner needs. A state whose stored properties are all `Sendable` can
/// conform to `Sendable` like any other value type.
public protocol State<Owner>: Equatable {
    /// The type of object that can be in this state.
    ///
    /// The `Stateful` helpers only accept states whose `Owner` is the
    /// object's own type, so the compiler rejects putting an object into
    /// another type's state.
    associatedtype Owner: AnyObject

    /// A name that tells this discrete state apart from the owner's others.
    ///
    /// The default is the type's fully qualified name, which is unique even
    /// when two owners both nest a state called `Normal`.
    var identifier: String { get }

    /// The states that may follow this one when changing state with
    /// `transition(to:)`.
    ///
    /// The default, ``Successors/any``, sets no rule.
    static var successors: Successors<Owner> { get }
}

extension State {
    public var identifier: String { String(reflecting: Self.self) }

    /// Whether both values are the same discrete state, whatever their data.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.identifier == rhs.identifier
    }
}

extension State where Self: Hashable {
    /// Hashes the identifier only, to agree with the default `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }
}
