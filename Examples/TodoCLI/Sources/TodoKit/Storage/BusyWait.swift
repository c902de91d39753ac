import Foundation

/// What to do while another process holds the database's lock: wait, say so after a moment,
/// and give up after a timeout, instead of SQLite's default of failing at once or a plain
/// busy timeout that waits without a word.
final class BusyWait {
    /// When to say "waiting for another todo".
    let announceAfter: Duration
    /// When to give up; the command then fails with `SQLITE_BUSY`.
    let timeout: Duration
    /// Called once per wait, after ``announceAfter``.
    private let announce: () -> Void
    private var start: ContinuousClock.Instant?
    private var announced = false

    init(announceAfter: Duration = .seconds(1), timeout: Duration, announce: @escaping () -> Void) {
        self.announceAfter = announceAfter
        self.timeout = timeout
        self.announce = announce
    }

    /// Whether SQLite should try again; sleeps a little first. `attempt` is 0 at the start of
    /// each wait.
    func shouldRetry(attempt: Int32) -> Bool {
        let now = ContinuousClock.now
        if attempt == 0 || start == nil {
            start = now
            announced = false
        }
        let waited = now - start!
        guard waited < timeout else { return false }
        if waited >= announceAfter, !announced {
            announced = true
            announce()
        }
        // Short sleeps first, so a lock held for a moment (another todo's commit) costs
        // little; longer ones later, so a long wait does not spin.
        usleep(attempt < 10 ? 1_000 : 10_000)
        return true
    }
}
