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
    /// UTC, so it survives saving and loading; with a `TestClock`, how far the clock has been
    /// advanced; with another clock, the time elapsed on it since it was given (when the
    /// history was made, or by `withDebouncing(clock:interval:)`).
    ///
    /// Times never go backwards within a history, across clocks and reloads: a reading older
    /// than the newest time the history holds (a new clock starting at zero, a history loaded
    /// from a machine whose clock ran ahead) is shifted forward, with every later reading of
    /// that clock, so the first step on it is as old as the newest before it and later steps
    /// keep the clock's own spacing. Moves by time (`earlier(by:)`) then stay near.
    public var time: Duration
    /// The version the step leads to.
    public var version: HistoryVersion
    /// The version the step starts from.
    public var parent: HistoryVersion
    /// Who made the step, if the history was told (a controller's `author`, the undoable
    /// reducer's `author` option); `undo(by:)` takes back only steps of the author it names.
    /// A popped scope's step has the author all its steps share, or none if they differ.
    public var author: HistoryAuthor?
}
