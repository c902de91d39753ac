/// A change inside a nested value, reached through a key path.
///
/// Applying it mutates the nested value in place through the key path, so copy-on-write
/// storage that only this value references is not copied.
final class KeyPathChange<Root, Value>: ReversionNode {

    let keyPath: WritableKeyPath<Root, Value>
    let child: any ReversionNode<Value>

    init(at keyPath: WritableKeyPath<Root, Value>, child: any ReversionNode<Value>) {
        self.keyPath = keyPath
        self.child = child
    }

    func canApply(to value: Root, _ direction: ReversionDirection) -> Bool {
        child.canApply(to: value[keyPath: keyPath], direction)
    }

    func apply(to value: inout Root, _ direction: ReversionDirection) -> Bool {
        child.apply(to: &value[keyPath: keyPath], direction)
    }

    func advance(_ value: inout Root, toward newer: Root) -> Bool {
        child.advance(&value[keyPath: keyPath], toward: newer[keyPath: keyPath])
    }

    func bringsBackOnlyAbsentIDs(in value: Root, _ direction: ReversionDirection) -> Bool {
        child.bringsBackOnlyAbsentIDs(in: value[keyPath: keyPath], direction)
    }

    func applySelectively(
        to value: inout Root, _ direction: ReversionDirection, onConflict policy: ConflictPolicy,
        conflicts: inout [NodeConflict]
    ) {
        var inner: [NodeConflict] = []
        child.applySelectively(to: &value[keyPath: keyPath], direction, onConflict: policy, conflicts: &inner)
        let location = LocationName(keyPath)
        conflicts += inner.map { $0.inside(location) }
    }

    func refusedLocation(in value: Root, _ direction: ReversionDirection) -> LocationName? {
        LocationName(keyPath) + (child.refusedLocation(in: value[keyPath: keyPath], direction) ?? .root)
    }

    func appendKeyPaths(to paths: inout [PartialKeyPath<Root>]) {
        var childPaths: [PartialKeyPath<Value>] = []
        child.appendKeyPaths(to: &childPaths)
        for childPath in childPaths {
            if let path = keyPath.appending(path: childPath) as? PartialKeyPath<Root> {
                paths.append(path)
            }
        }
    }
}

extension KeyPath {

    /// Appends a type-erased key path rooted at this key path's value.
    func appending(path: PartialKeyPath<Value>) -> AnyKeyPath? {
        (self as AnyKeyPath).appending(path: path as AnyKeyPath)
    }
}
