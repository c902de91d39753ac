/// A change inside an optional value that stays non-`nil`.
final class OptionalChange<Wrapped>: ReversionNode {

    let child: any ReversionNode<Wrapped>

    init(wrapping child: any ReversionNode<Wrapped>) {
        self.child = child
    }

    func canApply(to value: Wrapped?, _ direction: ReversionDirection) -> Bool {
        guard let value else { return false }
        return child.canApply(to: value, direction)
    }

    func apply(to value: inout Wrapped?, _ direction: ReversionDirection) -> Bool {
        guard value != nil else { return false }
        return child.apply(to: &value!, direction)
    }

    /// Inside the wrapped value, selectively; a value another writer set to `nil` is a
    /// conflict with nothing to write into.
    func applySelectively(
        to value: inout Wrapped?, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        guard value != nil else {
            conflicts.append(NodeConflict(location: .root, expected: nil, found: "nil"))
            return
        }
        var inner: [NodeConflict] = []
        child.applySelectively(to: &value!, direction, onConflict: policy, conflicts: &inner)
        conflicts += inner.map { $0.inside(.unwrapped) }
    }

    func refusedLocation(in value: Wrapped?, _ direction: ReversionDirection) -> LocationName? {
        guard let value else { return .root }
        return .unwrapped + (child.refusedLocation(in: value, direction) ?? .root)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Wrapped?>]) {
        var childPaths: [PartialKeyPath<Wrapped>] = []
        child.appendKeyPaths(to: &childPaths)
        for childPath in childPaths {
            if let path = (\Wrapped?.self!).appending(path: childPath) as? PartialKeyPath<Wrapped?> {
                paths.append(path)
            }
        }
    }
}
