/// Several changes made by one comparison, applied as one: all of them or none.
final class CompositeChange<Root>: ReversionNode {

    let nodes: [any ReversionNode<Root>]

    init(nodes: [any ReversionNode<Root>]) {
        self.nodes = nodes
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        nodes.allSatisfy { $0.canApply(to: value, direction) }
    }

    /// Applies the changes in registration order (reversed for the forward direction), each
    /// checked again just before it is written: registered key paths may overlap, so an
    /// earlier change can invalidate a later one. Then everything already written is rolled
    /// back and the value is left as it was.
    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        let ordered = direction == .backward ? nodes : nodes.reversed()
        for (index, node) in ordered.enumerated() {
            guard index == 0 || node.canApply(to: value, direction), node.apply(to: &value, direction) else {
                for applied in ordered[..<index].reversed() {
                    _ = applied.apply(to: &value, direction.reversed)
                }
                return false
            }
        }
        return true
    }

    /// As `apply` forward, each change advancing its own part toward `newer`.
    func advance(_ value: inout Root, toward newer: Root) -> Bool {
        let ordered = Array(nodes.reversed())
        for (index, node) in ordered.enumerated() {
            guard index == 0 || node.canApply(to: value, .forward), node.advance(&value, toward: newer) else {
                for applied in ordered[..<index].reversed() {
                    _ = applied.apply(to: &value, .backward)
                }
                return false
            }
        }
        return true
    }

    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool {
        nodes.allSatisfy { $0.bringsBackOnlyAbsentIDs(in: value, direction) }
    }

    /// Each change on its own, in the order `apply` takes them.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        for node in direction == .backward ? nodes : nodes.reversed() {
            node.applySelectively(to: &value, direction, onConflict: policy, conflicts: &conflicts)
        }
    }

    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        nodes.first { !$0.canApply(to: value, direction) }?.refusedLocation(in: value, direction)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        for node in nodes {
            node.appendKeyPaths(to: &paths)
        }
    }
}

/// Several changes as one node, in the order given: what a comparison, or a journal, found at
/// several places of one value (out of line: most steps hold one change).
@usableFromInline
func combinedNode<Root>(_ nodes: [any ReversionNode<Root>]) -> any ReversionNode<Root> {
    CompositeChange(nodes: nodes)
}
