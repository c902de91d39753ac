extension History {

    /// The time of a change read as `reading` on `policy`'s clock: the reading shifted so that
    /// it is never older than a time the history already holds (see ``HistoryTimeline``).
    @inlinable
    mutating func stamp(_ reading: Duration, policy: HistoryPolicy) -> Duration {
        if timeline.clock !== policy.clockIdentity {
            // Another clock's readings owe nothing to the last one's offset: a system clock
            // after a test clock keeps telling the time since 1970.
            timeline.clock = policy.clockIdentity
            timeline.offset = .zero
        }
        let newest = timeline.newest ?? newestTime
        var time = reading + timeline.offset
        if time < newest {
            timeline.offset += newest - time
            time = newest
        }
        timeline.newest = time
        return time
    }

    /// The newest time any version holds, read from every scope; once per loaded history.
    @usableFromInline
    var newestTime: Duration {
        scopes.reduce(Duration.zero) { newest, scope in
            let steps = scope.steps.values.reduce(scope.floorTime) { max($0, $1.time) }
            return max(newest, steps, scope.start?.time ?? .zero)
        }
    }
}
