import Testing
@testable import Revertible

/// `History.invariantViolations()`: silent on every history the engine builds, and loud on a
/// history whose structure was damaged by hand (a planted fault), so a broken invariant in
/// the engine cannot pass the suites that run the check after every operation.
@Suite("History: the invariant check")
struct HistoryInvariantTests {

    /// A history with a branch, an inner scope, a tag and a step dropped by the limit.
    private func makeHistory() -> History<String, NoAnnotation> {
        var history = History<String, NoAnnotation>("v0")
        let policy = HistoryPolicy(limit: 4)
        for step in 1...6 {
            history.record("v\(step)", annotation: NoAnnotation(), policy: policy)
        }
        history.perform(.tag("kept"), policy: policy)
        history.perform(.undo(to: .steps(2)), policy: policy)
        history.record("branch", annotation: NoAnnotation(), policy: policy)
        history.perform(.pushNewScope, policy: policy)
        history.record("inner", annotation: NoAnnotation(), policy: policy)
        return history
    }

    @Test("A history the engine built has no violation")
    func builtHistoryIsSound() {
        let history = makeHistory()
        #expect(history.invariantViolations() == [])
        #expect(history.scopes[0].steps.count > 1)
        #expect(history.scopes.count == 2)
    }

    @Test("A step one too deep is found")
    func wrongDepthIsFound() {
        var history = makeHistory()
        let version = history.scopes[0].current
        history.scopes[0].steps.modify(version) { $0.depth += 1 }
        let violations = history.invariantViolations()
        #expect(violations.contains { $0.contains("step \(version) in scope 0 has depth") })
    }

    @Test("A tag on a version no scope holds is found")
    func tagOnDroppedVersionIsFound() {
        var history = makeHistory()
        let dropped = HistoryVersion(1)
        #expect(!history.scopes.contains { $0.contains(dropped) })
        history.tagged.append((HistoryTag("gone"), dropped))
        #expect(history.invariantViolations().contains { $0.contains("tag gone names") })
    }

    @Test("A branch list that names a step the scope lost is found")
    func orphanBranchIsFound() {
        var history = makeHistory()
        let current = history.scopes[0].current
        history.scopes[0].steps.removeValue(forKey: current)
        #expect(!history.invariantViolations().isEmpty)
    }

    @Test("An inner scope that does not start where the scope below stands is found")
    func misplacedScopeIsFound() {
        var history = makeHistory()
        history.scopes[0].current = history.scopes[0].floor
        #expect(history.invariantViolations().contains { $0.contains("scope 1 starts at") })
    }

    @Test("A present outside its scope is found")
    func presentOutsideScopeIsFound() {
        var history = makeHistory()
        history.scopes[1].current = HistoryVersion(10_000)
        #expect(history.invariantViolations().contains { $0.contains("is not one of its versions") })
    }
}
