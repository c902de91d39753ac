/// A change applied the other way round: what reverting means for a reversion that was
/// inverted before it was nested in another value.
final class InvertedChange<Root>: ReversionNode {

    let base: any ReversionNode<Root>

    init(_ base: any ReversionNode<Root>) {
        self.base = base
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        base.canApply(to: value, direction.reversed)
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        base.apply(to: &value, direction.reversed)
    }

    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool {
        base.bringsBackOnlyAbsentIDs(in: value, direction.reversed)
    }

    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        base.applySelectively(to: &value, direction.reversed, onConflict: policy, conflicts: &conflicts)
    }

    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        base.refusedLocation(in: value, direction.reversed)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        base.appendKeyPaths(to: &paths)
    }
}
