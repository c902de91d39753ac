/// A property whose changes are tracked, with undo and redo on its projected value; errors
/// are stored in `$property.error` instead of thrown.
///
/// ```swift
/// struct Model {
///     @Versioned var activity = Activity.mock
/// }
/// model.activity.title = "New title"
/// model.$activity.undo() // model.activity.title == "Title"
/// ```
///
/// Every assignment (and every in-place mutation) is recorded as a step; group changes with
/// `$property.setWithTransaction(_:)` or a debounce interval. The history lives in a
/// ``VersioningController`` shared by copies of the wrapper, so copying a model that holds a
/// `@Versioned` property shares its history.
@propertyWrapper
public struct Versioned<Value: Revertible>: Sendable where Value: Sendable {

    let controller: VersioningController<Value, Value, ReversionError>

    /// Tracks `wrappedValue`, keeping at most `historyLimit` steps and grouping changes made
    /// less than `debounceInterval` apart (measured by `clock`).
    public init(
        wrappedValue: Value,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        controller = VersioningController(wrappedValue, historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock)
    }

    /// The current version; setting it records a step.
    public var wrappedValue: Value {
        get { controller.currentVersion }
        nonmutating set { controller.append(newValue) }
    }

    /// Undo, redo, scopes, tags and transactions for the property; failures go to `error`.
    public var projectedValue: VersionedHistory<Value, Never> {
        VersionedHistory(controller: controller) { _ in }
    }
}

/// A property whose changes are tracked, with undo and redo on its projected value that
/// throw ``ReversionError`` instead of storing it.
///
/// ```swift
/// @ThrowingVersioned var activity = Activity.mock
/// try $activity.undo()
/// ```
@propertyWrapper
public struct ThrowingVersioned<Value: Revertible>: Sendable where Value: Sendable {

    let controller: VersioningController<Value, Value, ReversionError>

    /// Tracks `wrappedValue`, keeping at most `historyLimit` steps and grouping changes made
    /// less than `debounceInterval` apart (measured by `clock`).
    public init(
        wrappedValue: Value,
        historyLimit: Int? = nil,
        debounceInterval: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        controller = VersioningController(wrappedValue, historyLimit: historyLimit, debounceInterval: debounceInterval, clock: clock)
    }

    /// The current version; setting it records a step.
    public var wrappedValue: Value {
        get { controller.currentVersion }
        nonmutating set { controller.append(newValue) }
    }

    /// Undo, redo, scopes, tags and transactions for the property; failures are thrown.
    public var projectedValue: VersionedHistory<Value, ReversionError> {
        VersionedHistory(controller: controller) { (error) throws(ReversionError) in throw error }
    }
}
