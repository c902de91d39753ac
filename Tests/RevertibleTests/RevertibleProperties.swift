import Foundation
import Testing
@testable import Revertible

/// Checks the laws every reversion obeys for the pair (`a`, `b`):
/// `b.reversion(to: a)` is nil exactly when they are equal, takes `b` to `a`, its inverse (the
/// redo direction the controller uses) takes `a` back to `b`, and `a.reversion(to: b)` takes
/// `a` to `b`.
func expectReversionLaws<Value: Revertible>(
    from a: Value,
    to b: Value,
    seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let backward = b.reversion(to: a)
    #expect((backward == nil) == (a == b), "seed \(seed)", sourceLocation: sourceLocation)
    guard let backward else { return }

    var value = b
    #expect(throws: Never.self, "seed \(seed)", sourceLocation: sourceLocation) { try backward.revert(&value) }
    #expect(value == a, "undo, seed \(seed)", sourceLocation: sourceLocation)
    expectSameBytes(value, a, seed: seed, sourceLocation: sourceLocation)

    #expect(throws: Never.self, "seed \(seed)", sourceLocation: sourceLocation) { try backward.inverted.revert(&value) }
    #expect(value == b, "redo, seed \(seed)", sourceLocation: sourceLocation)
    expectSameBytes(value, b, seed: seed, sourceLocation: sourceLocation)

    guard let forward = a.reversion(to: b) else {
        Issue.record("a.reversion(to: b) is nil for different values, seed \(seed)", sourceLocation: sourceLocation)
        return
    }
    var other = a
    #expect(throws: Never.self, "seed \(seed)", sourceLocation: sourceLocation) { try forward.revert(&other) }
    #expect(other == b, "seed \(seed)", sourceLocation: sourceLocation)
}

/// Strings compare equal under canonical equivalence; a reversion must restore the exact bytes.
func expectSameBytes<Value>(_ lhs: Value, _ rhs: Value, seed: UInt64, sourceLocation: SourceLocation) {
    if let lhs = lhs as? String, let rhs = rhs as? String {
        #expect(Array(lhs.utf8) == Array(rhs.utf8), "bytes differ, seed \(seed)", sourceLocation: sourceLocation)
    }
}

/// Reverting `wrong`, which differs from the version the reversion was made from at a location
/// the reversion writes, must throw and leave `wrong` exactly as it was.
func expectRejects<Value: Equatable>(
    _ reversion: Reversion<Value>,
    wrong: Value,
    seed: UInt64,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var value = wrong
    #expect(throws: ReversionError.attemptingToRevertWrongVersion, "seed \(seed)", sourceLocation: sourceLocation) {
        try reversion.revert(&value)
    }
    #expect(value == wrong, "changed by a failed revert, seed \(seed)", sourceLocation: sourceLocation)
    expectSameBytes(value, wrong, seed: seed, sourceLocation: sourceLocation)
}
