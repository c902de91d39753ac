extension VersioningController {

    /// Groups versions recorded less than `interval` apart, as measured by `clock`, into one
    /// undo step: a burst of typing is undone at once. Any command (an undo, a tag, a scope)
    /// and any transaction closes a burst first, so nothing typed is lost. An `interval` of
    /// `nil`, as in the initializers, stops grouping: every change becomes its own step again.
    ///
    /// Use ``TestClock`` in tests, so they need not sleep. A new clock never makes a step
    /// older than the steps before it: its readings are shifted forward as needed (see
    /// ``HistoryStep/time``). End a burst early with ``stopGrouping()``.
    public func withDebouncing(clock: some Clock<Duration> = ContinuousClock(), interval: Duration?) {
        change {
            $0.history.endGroup()
            $0.policy = HistoryPolicy(limit: $0.policy.limit, debounceInterval: interval, clock: clock, conflictPolicy: $0.policy.conflictPolicy)
        }
    }
}
