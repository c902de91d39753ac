/// What one undo step of a history holds, for menus and history views ("Undo Add “milk”").
public struct HistoryStep: Hashable, Sendable {
    /// The label of the step, if the history labels steps (the undoable reducer's `label`
    /// option); a step made of several changes has its first labelled change's label.
    public var label: String?
    /// How many recorded changes the step holds: more than one for a debounced burst, a
    /// group, a transaction's actions or a popped scope.
    public var changeCount: Int
    /// The tags of the version the step leads to, oldest first.
    public var tags: [HistoryTag]
    /// When the step was recorded: with the system clocks (the default), the time since 1970
    /// UTC, so it survives saving and loading; with another clock, the time elapsed on it since
    /// it was given (when the history was made, or by `withDebouncing(clock:interval:)`).
    public var time: Duration
    /// The version the step leads to.
    public var version: HistoryVersion
    /// The version the step starts from.
    public var parent: HistoryVersion

    /// A step description.
    public init(
        label: String? = nil,
        changeCount: Int = 1,
        tags: [HistoryTag] = [],
        time: Duration = .zero,
        version: HistoryVersion = HistoryVersion(0),
        parent: HistoryVersion = HistoryVersion(0)
    ) {
        self.label = label
        self.changeCount = changeCount
        self.tags = tags
        self.time = time
        self.version = version
        self.parent = parent
    }
}
