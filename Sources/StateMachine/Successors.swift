/// The rule saying which state types may follow a state, declared as its
/// ``State/successors``.
///
/// ```swift
/// struct Highlighted: State {
///     typealias Owner = MyView
///     static var successors: Successors<MyView> { .only(Normal.self) }
///     let color: Int
/// }
/// ```
///
/// Rules are checked by `transition(to:)`. Moving to another value of the
/// state you are already in is always allowed: it changes the data, not the
/// discrete state. Only states of the same `Owner` can be listed, so a rule
/// can't name a state the object could never be in.
public struct Successors<Owner: AnyObject>: Sendable {
    /// The allowed state types, or `nil` when any may follow.
    private let allowedTypes: Set<ObjectIdentifier>?

    private init(allowedTypes: Set<ObjectIdentifier>?) {
        self.allowedTypes = allowedTypes
    }

    /// Any state may follow.
    public static var any: Self { Self(allowedTypes: nil) }

    /// No other state may follow: the state is final.
    public static var none: Self { Self(allowedTypes: []) }

    /// Only the listed state types may follow.
    public static func only(_ stateTypes: any State<Owner>.Type...) -> Self {
        Self(allowedTypes: Set(stateTypes.map { ObjectIdentifier($0) }))
    }

    func allows(_ stateType: Any.Type) -> Bool {
        allowedTypes?.contains(ObjectIdentifier(stateType)) ?? true
    }
}

extension State {
    public static var successors: Successors<Owner> { .any }

    /// Lets callers holding an `any State` ask its rule without knowing
    /// `Owner`.
    static func allowsSuccessor(_ stateType: Any.Type) -> Bool {
        stateType == Self.self || successors.allows(stateType)
    }
}
