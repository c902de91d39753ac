extension VersioningController {

    /// Groups versions recorded less than `interval` apart, as measured by `clock`, into one
    /// undo step: a burst of typing is undone at once. Any command (an undo, a tag, a scope)
    /// and any transaction closes a burst first, so nothing typed is lost.
    ///
    /// Use ``TestClock`` in tests, so they need not sleep.
    public func withDebouncing(clock: some Clock<Duration> = ContinuousClock(), interval: Duration) {
        change {
            $0.history.endGroup()
            $0.policy = HistoryPolicy(limit: $0.policy.limit, groupingInterval: interval, clock: clock)
        }
    }

    /// Stops grouping versions: every change becomes its own step again.
    public func withoutDebouncing() {
        change {
            $0.history.endGroup()
            $0.policy.groupingInterval = nil
        }
    }
}
