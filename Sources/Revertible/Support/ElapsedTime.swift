/// A function returning the time elapsed on `clock` since this was called: instants of an
/// arbitrary clock cannot be stored without its type, durations can.
package func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let origin = clock.now
    return { origin.duration(to: clock.now) }
}
