extension VersioningController {

    /// Groups versions recorded less than `interval` apart, as measured by `clock`, into one
    /// undo step: a burst of typing is undone at once. An undo or redo (or any other
    /// operation) during a burst first closes it, so nothing typed is lost.
    ///
    /// Use a manual clock in tests, so they need not sleep.
    public func withDebouncing(clock: any Clock<Duration> = ContinuousClock(), interval: Duration) {
        change { $0.debounce = Debounce(interval: interval, clock: clock) }
    }

    /// Stops grouping versions: every change becomes its own step again.
    public func withoutDebouncing() {
        change { $0.debounce = nil }
    }
}

/// A debounce interval and the clock that measures it.
struct Debounce: Sendable {
    let interval: Duration
    /// The time elapsed on the clock since the debounce was set up.
    let now: @Sendable () -> Duration

    init?(interval: Duration?, clock: any Clock<Duration>) {
        guard let interval else { return nil }
        self.interval = interval
        now = elapsedTime(on: clock)
    }
}
