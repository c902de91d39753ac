/// The whole old and new value of a type that ignores some of its properties
/// (``Reverter/ignore(_:)``): checks and writes everything but those, which keep whatever the
/// value being reverted holds.
final class IgnoringValueChange<Root: Equatable>: ReversionNode {

    let old: Root
    let new: Root
    let ignored: [IgnoredProperty<Root>]

    init(from old: Root, to new: Root, ignoring ignored: [IgnoredProperty<Root>]) {
        self.old = old
        self.new = new
        self.ignored = ignored
    }

    /// Whether the two versions differ outside the ignored properties.
    var differs: Bool {
        !agrees(new, with: old)
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        agrees(value, with: direction == .backward ? new : old)
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        let kept = value
        value = direction == .backward ? old : new
        ignored.copy(from: kept, into: &value)
        return true
    }

    /// One location, the whole value but its ignored properties; overwriting writes it anyway.
    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        if !canApply(to: value, direction) {
            conflicts.append(NodeConflict(
                location: .root, expected: describe(direction == .backward ? new : old), found: describe(value)
            ))
            guard policy == .overwrite else { return }
        }
        _ = apply(to: &value, direction)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        paths.append(\Root.self)
    }

    /// Whether `value` equals `expected` once `expected`'s ignored properties are set to `value`'s.
    private func agrees(_ value: Root, with expected: Root) -> Bool {
        var masked = expected
        ignored.copy(from: value, into: &masked)
        return matches(masked, value)
    }
}
