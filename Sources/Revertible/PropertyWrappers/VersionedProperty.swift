/// A property whose changes are tracked, with the property's ``VersioningController`` as its
/// projected value: `$property.undo()`, `$property.tag(_:)`, `$property.pushNewScope()`, and
/// the rest of the controller's API.
///
/// Use it as ``Versioned`` (refusals are stored in `$property.error`) or
/// ``ThrowingVersioned`` (refusals are thrown):
///
/// ```swift
/// struct Model {
///     @Versioned var activity = Activity.mock
/// }
/// let model = Model()
/// model.activity.title = "New title"
/// model.$activity.undo() // model.activity.title == "Title"
/// ```
///
/// Every assignment (and every in-place mutation) is recorded as a step; group changes with
/// `$property.setWithTransaction(_:)` or a debounce interval. The history lives in the
/// controller, shared by copies of the wrapper, so copying a model that holds a versioned
/// property shares its history.
///
/// Inside an `@Observable` class, write `@ObservationIgnored @Versioned var activity = ...`:
/// the controller is itself observable, so views still update, and Observation's macro
/// cannot rewrite a property that already has a wrapper.
@propertyWrapper
public struct VersionedProperty<Value: Revertible, Failure: Error> {

    /// The property's history: undo, redo, scopes, tags and transactions.
    public let projectedValue: VersioningController<Value, Value, Failure>

    /// Tracks `wrappedValue` with no limit, no debouncing and the continuous clock.
    ///
    /// The plain form the compiler needs for memberwise initializers: with it,
    /// `Model(activity: activity)` takes the value, not a wrapper.
    public init(wrappedValue: Value) {
        self.init(wrappedValue: wrappedValue, historyLimit: nil, debounceInterval: nil, clock: ContinuousClock())
    }

    /// Tracks `wrappedValue`, keeping at most `historyLimit` steps and grouping changes made
    /// less than `debounceInterval` apart (measured by `clock`).
    public init(
        wrappedValue: Value,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock()
    ) {
        projectedValue = VersioningController(
            value: wrappedValue, root: .value(\Value.self),
            historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock,
            reportError: { (_, error) throws(Failure) in
                // `Never` has no values: a `@Versioned` property keeps the error in `error`.
                if let error = error as? Failure { throw error }
            }
        )
    }

    /// The current version; setting it records a step.
    public var wrappedValue: Value {
        get { projectedValue.currentVersion }
        nonmutating set { projectedValue.append(newValue) }
    }
}

/// Sendable when the value is: the controller guards its history with a lock.
extension VersionedProperty: Sendable where Value: Sendable {}

/// A tracked property whose projected value stores refusals in `$property.error`.
public typealias Versioned<Value: Revertible> = VersionedProperty<Value, Never>

/// A tracked property whose projected value throws ``HistoryError``.
///
/// ```swift
/// @ThrowingVersioned var activity = Activity.mock
/// activity.title = "New title"
/// try $activity.undo() // activity.title == "Title"
/// ```
public typealias ThrowingVersioned<Value: Revertible> = VersionedProperty<Value, HistoryError>
