extension History {

    /// A run of changes recorded less than the debounce interval apart, kept as one step.
    struct Burst {
        /// The version before the burst's first change: each change of the burst is diffed
        /// against it, so the step stays one reversion, not a chain.
        var base: Value
        /// The scope whose top step is the burst's step.
        var scope: Int
        var lastChange: Duration
    }

    /// Folds `value` into the open burst if it came soon enough, replacing the burst's step
    /// with the change from the burst's base (or removing it, if the burst cancelled out).
    mutating func extendBurst(with value: Value, annotation: Annotation, at time: Duration, interval: Duration) -> Bool {
        guard let open = burst, open.scope == top, time - open.lastChange < interval,
              let step = scopes[top].undo.last
        else { return false }
        burst?.lastChange = time
        if let change = value.reversion(to: current) {
            advanceReference(to: value, by: change)
        }
        // From the history's own version, not `value`: the step must check exactly the bytes
        // the history holds (see `advanceReference(to:by:)`).
        if let reversion = current.reversion(to: open.base) {
            var replacement = HistoryStep(reversion: reversion, annotation: step.annotation.merged(with: annotation))
            replacement.tagBox = step.tagBox
            scopes[top].undo[scopes[top].undo.count - 1] = replacement
        } else {
            scopes[top].undo.removeLast()
            burst = nil
        }
        return true
    }

    /// Closes the open burst: the next change starts a new step. Every operation other than
    /// recording does this first, even one that changes nothing, so an undo during a burst
    /// undoes the whole burst, and a tagged version is never amended by later changes.
    package mutating func endBurst() {
        burst = nil
    }

    /// Whether a burst is open.
    package var isInBurst: Bool {
        burst != nil
    }
}

extension History.Burst: Sendable where Value: Sendable {}
