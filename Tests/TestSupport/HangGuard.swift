import Testing

extension Trait where Self == TimeLimitTrait {

    /// The time limit of a test that awaits other tasks (effects, streams): it turns a hang
    /// into a failure, and is not a measure of speed.
    ///
    /// Ten minutes, not one: the tests share a cooperative pool as wide as the machine (two
    /// threads on a two-core machine), and the synchronous tests that run beside an awaiting
    /// one hold those threads until they finish. Under load that has kept an awaiting test
    /// from resuming for over a minute, and its limit failed it although nothing hung.
    public static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
