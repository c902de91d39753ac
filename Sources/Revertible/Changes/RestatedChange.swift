/// A change a type recorded through computed key paths (an enum's payload, a computed
/// property): applied exactly as recorded, and saved as the type's whole old and new value,
/// since a computed key path has no name that could be read back.
///
/// Made only for `Encodable` types that register a computed key path, so the two copies it
/// keeps cost what the type costs (an enum, typically), and nothing elsewhere.
final class RestatedChange<Root: Equatable>: ReversionNode {

    let change: any ReversionNode<Root>
    let old: Root
    let new: Root

    init(_ change: any ReversionNode<Root>, from old: Root, to new: Root) {
        self.change = change
        self.old = old
        self.new = new
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        change.canApply(to: value, direction)
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        change.apply(to: &value, direction)
    }

    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        change.applySelectively(to: &value, direction, onConflict: policy, conflicts: &conflicts)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        change.appendKeyPaths(to: &paths)
    }

    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        change.refusedLocation(in: value, direction)
    }
}

extension RestatedChange: EncodableReversionNode {

    /// Written as a whole-value change, which reads back as one.
    func encode(into container: inout KeyedEncodingContainer<NodeCodingKey>) throws {
        try ValueChange(at: \Root.self, from: old, to: new).encode(into: &container)
    }
}
